/**
 * The script that runs inside every sandbox isolate, after the nunjucks runtime (`nunjucks-slim`, no
 * compiler) has been loaded there. It builds the environment (Twig filters, seeded `random`,
 * template-function stubs), disables code generation from strings, freezes every object a template
 * can reach, and returns the batch render function the sandbox process calls.
 *
 * It is bundled into one script at build time (see ../isolate-bootstrap.ts); it must import nothing
 * outside this folder, since the isolate has no Node built-ins and no host objects.
 *
 * Protocol of the batch render function `renderBatch([defsJson, itemsJson])` (one array argument: see
 * `IsolatePool.run` for why):
 * - defs: `[[templateId, code], ...]` compiled templates to load first (oldest evicted beyond the cap);
 * - items: `[[renderId, templateId, seed, nowMs, results, variables], ...]` where `results` holds the
 *   answers of earlier template-function calls of this render, `[[name, argsJson, value], ...]`;
 * - returns the JSON of `[[renderId, status, ...], ...]`: status 0 output, 1 template error message,
 *   2 call needed (name, argsJson), 4 function-call limit, 7 template not loaded.
 */
import { FILTERS } from "./filters.js";
import { blockCodeGeneration, harden } from "./harden.js";
import { hostFunction } from "./host-calls.js";
import { mulberry32, random } from "./random.js";
import { twigRange } from "./ranges.js";
import { init, rt } from "./runtime.js";
import type { CallResult, IsolateLimits, NunjucksSlim, NunjucksTemplate } from "./runtime.js";
import { twigStringTest } from "./string-tests.js";
import { cycle, twigHas, twigIn, twigInt, twigLoopValues, twigPairs, twigPrint, twigSpaceship, twigWith } from "./twig-ops.js";
import { isEmpty, isObject, str, truthy, values } from "./values.js";

/** nunjucks filters that take a list (see `bootstrap`). */
const LIST_FILTERS = ["sum", "select", "reject", "selectattr", "rejectattr", "groupby"] as const;

/** One render of a batch: `[renderId, templateId, seed, nowMs, results, variables]`. */
type RenderItem = [number, string, number, number, CallResult[], unknown];
/** One result of a batch (see the protocol above). */
type RenderResult = [number, number, ...unknown[]];

function extreme(pick: (a: unknown, b: unknown) => boolean, args: unknown[]): unknown {
  const list = args.length === 1 ? values(args[0]) : args;
  if (!list.length) return null;
  return list.reduce((best, v) => (pick(v, best) ? v : best));
}

function cap(text: string, limit: number): string {
  let out = text.trim();
  if (out.length > limit) {
    let end = limit;
    const code = out.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    out = out.slice(0, end).trim();
  }
  return out;
}

function describe(error: unknown): string {
  const raw = error && typeof (error as Error).message === "string" ? (error as Error).message : String(error);
  const message = raw
    .replace(/\n\s*/g, " ")
    .replace(/^\(command\)\s*/, "")
    .replace(/^\[Line (\d+), Column (\d+)\]\s*/, "line $1, column $2: ");
  return message.length > 300 ? message.slice(0, 300) + "..." : message;
}

/** Sets up the isolate and returns its batch render function. */
export function bootstrap(limits: IsolateLimits): (batch: readonly [string, string]) => string {
  const holder = globalThis as { nunjucks?: NunjucksSlim };
  const NJ = holder.nunjucks as NunjucksSlim;
  delete holder.nunjucks;
  const makeFunction = Function;
  init(NJ, limits);
  const templates = new Map<string, NunjucksTemplate>();

  const env = new NJ.Environment([], { autoescape: false, throwOnUndefined: false });
  for (const name of Object.keys(FILTERS)) env.addFilter(name, FILTERS[name] as (...args: never[]) => unknown);
  // nunjucks' list filters read arrays only; Twig's `filter` gives a hash when it drops an item
  // before a kept one (`[1, 5, 3]|filter(v => v > 3)` is `{1: 5}`): they get its values.
  for (const name of LIST_FILTERS) {
    const original = env.getFilter(name);
    // `this` is the render context (select/reject read `this.env`).
    env.addFilter(name, function (this: unknown, v: unknown, ...args: unknown[]) {
      return original.call(this, isObject(v) ? values(v) : v, ...args);
    });
  }
  env.addTest("empty", isEmpty);
  // Twig: an undefined variable is null.
  env.addTest("null", (v: unknown) => v === null || v === undefined);
  env.addTest("none", (v: unknown) => v === null || v === undefined);
  env.addTest("odd", (n: unknown) => Math.abs(Number(n) % 2) === 1);
  env.addTest("even", (n: unknown) => Number(n) % 2 === 0);
  // Twig's range: both ends included, letters too.
  env.addGlobal("range", (low: unknown, high: unknown, step?: unknown) => {
    if (high === undefined) throw new TypeError("range(low, high, step) needs low and high");
    return twigRange(low, high, step);
  });
  env.addGlobal("cycle", cycle);
  env.addGlobal("random", random);
  env.addGlobal("max", (...args: unknown[]) => extreme((a, b) => (a as number) > (b as number), args));
  env.addGlobal("min", (...args: unknown[]) => extreme((a, b) => (a as number) < (b as number), args));
  for (const name of limits.functions) env.addGlobal(name, hostFunction(name));
  const runtime = NJ.runtime;
  runtime.twigTruthy = truthy;
  runtime.twigRange = twigRange;
  runtime.twigString = str;
  runtime.twigStringTest = twigStringTest;
  runtime.twigPrint = twigPrint;
  runtime.twigIn = twigIn;
  runtime.twigSpaceship = twigSpaceship;
  runtime.twigHas = twigHas;
  runtime.twigPairs = twigPairs;
  runtime.twigLoopValues = twigLoopValues;
  runtime.twigInt = twigInt;
  runtime.twigWith = twigWith;

  // No stack traces in the isolate: nothing reads them (errors reach the host as their message only),
  // and nunjucks wraps every error a render throws in TemplateErrors that build and format a stack
  // trace each. A template stopping at a template function (the NEED unwind) paid that on every
  // first pass: about 50 µs of the isolate's CPU, ten times the render itself.
  (Error as { stackTraceLimit?: number }).stackTraceLimit = 0;
  blockCodeGeneration();
  harden(globalThis);
  harden(NJ);
  harden(env);

  function define(id: string, code: string): void {
    const props: unknown = makeFunction(code)();
    templates.delete(id);
    templates.set(id, new NJ.Template({ type: "code", obj: props }, env, "command", true));
    if (templates.size > limits.maxTemplates) templates.delete(templates.keys().next().value as string);
  }

  function renderOne(item: RenderItem): RenderResult {
    const [id, templateId, seed, now, results, variables] = item;
    const template = templates.get(templateId);
    if (!template) return [id, 7];
    rt.state = { rand: mulberry32(seed), now, results, calls: 0, need: null, limitHit: false };
    const state = rt.state;
    try {
      const output = template.render(variables);
      if (state.need) return [id, 2, state.need[0], state.need[1]];
      return [id, 0, cap(str(output), limits.outputLimit)];
    } catch (error) {
      if (state.need) return [id, 2, state.need[0], state.need[1]];
      if (state.limitHit) return [id, 4];
      return [id, 1, describe(error)];
    } finally {
      rt.state = null;
    }
  }

  return function renderBatch(batch: readonly [string, string]): string {
    const defsJson = batch[0];
    const itemsJson = batch[1];
    const defs = JSON.parse(defsJson) as Array<[string, string]>;
    for (const [id, code] of defs) define(id, code);
    const items = JSON.parse(itemsJson) as RenderItem[];
    return JSON.stringify(items.map(renderOne));
  };
}
