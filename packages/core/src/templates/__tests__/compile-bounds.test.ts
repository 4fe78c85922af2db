import { afterAll, describe, expect, it } from "vitest";
import { TemplateSyntaxError } from "../template-errors.js";
import { TEMPLATE_COMPILE_LIMITS } from "../compile-bounds.js";
import { TemplateSandbox } from "../template-sandbox.js";
import { recordingFunctions, variables } from "./template-test-kit.js";

/** Issue 10, high: `{{ f()()...() }}` (900 calls, 1.8 kB) compiled into 9 MB of JavaScript on the main thread. */
describe("compile bounds", () => {
  const sandbox = new TemplateSandbox();
  afterAll(async () => {
    await sandbox.close();
  });

  const refusal = (source: string): TemplateSyntaxError => {
    try {
      sandbox.compile(source);
    } catch (error) {
      expect(error).toBeInstanceOf(TemplateSyntaxError);
      return error as TemplateSyntaxError;
    }
    throw new Error(`compiled: ${source.slice(0, 40)}`);
  };

  it("refuses a call chain that would expand quadratically, naming the compiled-size limit, before compiling it", () => {
    const error = refusal(`{{ f${"()".repeat(900)} }}`);
    expect(error.message).toContain(`the compiled-size limit is ${TEMPLATE_COMPILE_LIMITS.maxCompiledChars}`);
  });

  it("refuses nesting deeper than the limit, naming it", () => {
    expect(refusal(`{{ a${".b".repeat(200)} }}`).message).toContain(`the nesting limit is ${TEMPLATE_COMPILE_LIMITS.maxNesting}`);
    expect(refusal(`{{ x${"|upper".repeat(100)} }}`).message).toContain("nesting limit");
  });

  it("refuses at compile time code V8 would refuse at every run ({{ - -1 }})", () => {
    expect(refusal("{{ - -1 }}").message).toContain("invalid JavaScript");
  });

  it("accepts everyday templates up to the limits and renders them", async () => {
    const chain = sandbox.compile(`{{ "a"${"|upper".repeat(40)} }}`);
    expect(await sandbox.render(chain, variables(["!x"]), recordingFunctions())).toBe("A");
    expect(await sandbox.render(sandbox.compile("{{ -(-1) }}"), variables(["!x"]), recordingFunctions())).toBe("1");
  });

  it("compiles a source once: compiling it again returns the same compiled template", () => {
    const source = "{{ args[1] | default('you') }} {{ random(1, 6) }}";
    expect(sandbox.compile(source)).toBe(sandbox.compile(source));
  });
});
