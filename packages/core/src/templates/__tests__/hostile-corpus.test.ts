import { readFileSync, readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OvationError } from "../../errors.js";
import { TemplateRenderError, TemplateSyntaxError } from "../template-errors.js";
import { TemplateSandbox } from "../template-sandbox.js";
import { recordingFunctions, variables } from "./template-test-kit.js";

const DIR = new URL("../../../../../fixtures/templates/hostile/", import.meta.url);
const FILES = readdirSync(DIR)
  .filter((name) => name.endsWith(".twig"))
  .sort();

/** What a hostile template may end in: an error code (by reason) or harmless output. */
const OUTCOME_CODES: Readonly<Record<string, string>> = {
  syntax: "OVATION_ERR_TEMPLATE_SYNTAX",
  runtime: "OVATION_ERR_TEMPLATE_RUNTIME",
  timeout: "OVATION_ERR_TEMPLATE_TIMEOUT",
  memory: "OVATION_ERR_TEMPLATE_MEMORY",
  crashed: "OVATION_ERR_TEMPLATE_SANDBOX_CRASHED",
  function: "OVATION_ERR_TEMPLATE_FUNCTION",
  function_limit: "OVATION_ERR_TEMPLATE_FUNCTION_LIMIT",
  output: "output",
};

const HOST_SECRET = `host-secret-${process.pid}-${Date.now()}`;
/** Text that would only appear if something of the host leaked into a render. */
const LEAK_MARKERS = [HOST_SECRET, "[object process]", "mainModule", "child_process", "root:x:0:0"];

function snapshot(): string {
  return JSON.stringify({
    object: Object.getOwnPropertyNames(Object.prototype).sort(),
    array: Object.getOwnPropertyNames(Array.prototype).sort(),
    func: Object.getOwnPropertyNames(Function.prototype).sort(),
    string: Object.getOwnPropertyNames(String.prototype).sort(),
    globals: Object.getOwnPropertyNames(globalThis).sort(),
  });
}

describe("hostile template corpus", () => {
  const sandbox = new TemplateSandbox();
  const ordinary = sandbox.compile("{{ event.user.username }} says {{ args[1] }}");
  const vars = variables(["!cmd", "hello"]);
  let before = "";

  beforeAll(() => {
    process.env["OVATION_TEST_HOST_SECRET"] = HOST_SECRET;
    (globalThis as Record<string, unknown>)["hostSecret"] = HOST_SECRET;
    delete (globalThis as Record<string, unknown>)["hostSecret"];
    before = snapshot();
  });
  afterAll(async () => {
    delete process.env["OVATION_TEST_HOST_SECRET"];
    await sandbox.close();
  });

  it("holds at least 40 templates, each declaring its allowed outcomes", () => {
    expect(FILES.length).toBeGreaterThanOrEqual(40);
    for (const file of FILES) {
      const source = readFileSync(new URL(file, DIR), "utf8");
      const expected = /^\{# expect: ([a-z_|]+) #\}/.exec(source)?.[1]?.split("|") ?? [];
      expect(expected.length, file).toBeGreaterThan(0);
      for (const outcome of expected) expect(Object.keys(OUTCOME_CODES), file).toContain(outcome);
    }
  });

  for (const file of FILES) {
    it(`${file} ends within its limits with a clear error or harmless output; the host is unaffected`, async () => {
      const source = readFileSync(new URL(file, DIR), "utf8");
      const allowed = (/^\{# expect: ([a-z_|]+) #\}/.exec(source)?.[1] ?? "").split("|").map((o) => OUTCOME_CODES[o]);
      const functions = recordingFunctions();
      let outcome: string;
      let output = "";
      try {
        output = await sandbox.render(sandbox.compile(source), vars, functions);
        outcome = "output";
      } catch (error) {
        expect(error, String(error)).toBeInstanceOf(OvationError);
        expect(error instanceof TemplateSyntaxError || error instanceof TemplateRenderError).toBe(true);
        const { code, message } = error as OvationError;
        expect(message.length).toBeGreaterThan(10);
        outcome = code;
        for (const marker of LEAK_MARKERS) expect(message).not.toContain(marker);
      }
      expect(allowed, `${file} ended in ${outcome}`).toContain(outcome);
      expect(output.length).toBeLessThanOrEqual(sandbox.limits.outputLimit);
      for (const marker of LEAK_MARKERS) expect(output).not.toContain(marker);
      expect(functions.calls.filter((call) => call.performed && /127\.|169\.254|10\.0|\[::|file:|gopher:/.test(String(call.args.at(-1))))).toEqual([]);

      expect(snapshot()).toBe(before);
      expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
      expect(process.env["OVATION_TEST_HOST_SECRET"]).toBe(HOST_SECRET);
      expect(await sandbox.render(ordinary, vars, recordingFunctions())).toBe("viewer42 says hello");
    });
  }

  it("leaves the sandbox environment free of host variables", async () => {
    const probe = sandbox.compile(
      "{{ (process is defined)|json_encode ~ (require is defined)|json_encode ~ (global is defined)|json_encode ~ {}.polluted ~ [].polluted ~ ''.polluted }}",
    );
    expect(await sandbox.render(probe, vars, recordingFunctions())).toBe("falsefalsefalse");
  });
});
