import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import ivm from "isolated-vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolateBootstrapSource } from "../isolate-bootstrap.js";
import { compileTwig } from "../twig-compiler.js";

const require = createRequire(import.meta.url);

/**
 * The bootstrap's hardening, checked with raw JavaScript run in the isolate (stronger than anything
 * a template can express): even code that reaches the intrinsics cannot pollute them or build code
 * from strings, and rendering keeps working afterwards.
 */
describe("isolate hardening", () => {
  let isolate: ivm.Isolate;
  let context: ivm.Context;
  let render: ivm.Reference<(batch: readonly [string, string]) => string>;

  beforeAll(async () => {
    isolate = new ivm.Isolate({ memoryLimit: 16 });
    context = await isolate.createContext();
    await context.eval(readFileSync(require.resolve("nunjucks/browser/nunjucks-slim.min.js"), "utf8"));
    const factory = await (await isolate.compileScript(isolateBootstrapSource())).run(context, { reference: true });
    const limits = { outputLimit: 500, maxCalls: 20, maxItems: 10_000, maxArgumentChars: 8192, maxTemplates: 8, functions: ["proxy_pass"] };
    render = (await factory.apply(undefined, [new ivm.ExternalCopy(limits).copyInto()], {
      result: { reference: true },
    })) as ivm.Reference<(batch: readonly [string, string]) => string>;
  });
  afterAll(() => isolate.dispose());

  const run = (code: string): Promise<unknown> => context.eval(code, { timeout: 1_000, copy: true });

  it("freezes the intrinsics, so pollution from raw code does not stick", async () => {
    expect(await run("Object.isFrozen(Object.prototype) && Object.isFrozen(Array.prototype) && Object.isFrozen(globalThis)")).toBe(true);
    expect(await run("Object.prototype.polluted = 1; Array.prototype.push = null; ({}).polluted === undefined && typeof [].push")).toBe(
      "function",
    );
    await expect(run('"use strict"; Object.prototype.polluted = 1;')).rejects.toThrow(/not extensible|read only|Cannot add/);
  });

  it("has no way to build code from a string", async () => {
    await expect(run("(function () {}).constructor('return 1')()")).rejects.toThrow(/code generation/);
    await expect(run("(async function () {}).constructor('return 1')")).rejects.toThrow(/code generation/);
    await expect(run("(function* () {}).constructor('yield 1')")).rejects.toThrow(/code generation/);
    expect(await run("typeof eval")).toBe("undefined");
  });

  it("builds no stack traces (errors reach the host as their message only), and raw code cannot turn them back on", async () => {
    expect(await run("Error.stackTraceLimit")).toBe(0);
    expect(await run("new Error('x').stack")).toBe("Error: x");
    expect(await run("try { Error.stackTraceLimit = 10 } catch (e) {} new Error('y').stack")).toBe("Error: y");
  });

  it("has no host objects", async () => {
    expect(await run("[typeof process, typeof require, typeof module, typeof nunjucks, typeof setTimeout].join()")).toBe(
      "undefined,undefined,undefined,undefined,undefined",
    );
  });

  it("still lets objects shadow inherited properties after the freeze", async () => {
    expect(await run("(function () { var o = {}; o.toString = function () { return 'mine'; }; return String(o); })()")).toBe("mine");
  });

  it("renders after all of that, with |safe strings working on the frozen prototypes", async () => {
    const code = compileTwig("{{ ('<b>' ~ args[1])|safe }} {% set toString = 'x' %}{{ toString }}").code;
    const result = await render.apply(
      undefined,
      [[JSON.stringify([["t1", code]]), JSON.stringify([[1, "t1", 7, 0, [], { args: ["!c", "hi"] }]])]],
      { arguments: { copy: true }, timeout: 1_000, result: { copy: true } },
    );
    expect(JSON.parse(result)).toEqual([[1, 0, "<b>hi x"]]);
  });
});
