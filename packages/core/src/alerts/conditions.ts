import type { LogicEngine } from "json-logic-engine";
import * as z from "zod";
import { ALERT_LIMITS } from "./limits.js";
import { newLogicEngine } from "./logic-engine.js";

/**
 * JsonLogic operators a variation condition may use: every operator of jsonlogic.com (logic,
 * comparison, arithmetic, string, array: `map`, `filter`, `reduce`, `merge`, `all`, `some`, `none`);
 * operators of json-logic-engine beyond the JsonLogic standard (`throw`, `try`, `preserve`, `val`...)
 * are refused so a saved config stays portable to any JsonLogic implementation. The array operators
 * iterate over alert data only (bounded by the alert's own size limits) and their rules count
 * against the same node and depth limits as the rest of the condition.
 */
export const CONDITION_OPERATORS = [
  "var", "missing", "missing_some",
  "and", "or", "!", "!!", "if", "?:",
  "==", "===", "!=", "!==", ">", ">=", "<", "<=",
  "in", "cat", "substr",
  "+", "-", "*", "/", "%", "min", "max",
  "some", "all", "none", "map", "filter", "reduce", "merge",
] as const;

/** A JsonLogic operator allowed in conditions. */
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

const allowed: ReadonlySet<string> = new Set(CONDITION_OPERATORS);

/** A JsonLogic condition as stored in a variation (the AE4 format stores an object). */
export type Condition = { [operator: string]: unknown };

/**
 * Any JsonLogic rule: an operation object, or a literal (`true`, `false`, `null`, a number, a
 * string, an array of rules), which is a valid rule on jsonlogic.com and evaluates to itself.
 */
export type JsonLogicRule = Condition | boolean | number | string | null | readonly unknown[];

/** One problem found in a condition: where (relative to the condition) and which rule it breaks. */
export interface ConditionIssue {
  readonly path: (string | number)[];
  readonly rule: "operator" | "depth" | "size" | "shape" | "literal";
  readonly message: string;
}

/**
 * Checks a condition against the rules applied when a config is saved: only allowed operators, one
 * operator per object, `var` takes a path (and optionally a default), depth and size bounded. The
 * empty object `{}` is allowed at the top only and means "always"; a literal rule (`false`, `1`...)
 * is valid and means its own truthiness.
 */
export function conditionIssues(condition: unknown): ConditionIssue[] {
  const issues: ConditionIssue[] = [];
  let nodes = 0;
  const L = ALERT_LIMITS;
  const depthIssue = (path: (string | number)[]): ConditionIssue => ({
    path,
    rule: "depth",
    message: `a condition may be nested at most ${L.conditionDepth} levels deep`,
  });
  // `depth` counts operations; `nesting` counts arrays too, so `[[[[...]]]]` cannot recurse unbounded.
  const walk = (node: unknown, path: (string | number)[], depth: number, nesting = depth): void => {
    if (issues.length >= 20 || nodes > L.conditionNodes) return;
    nodes++;
    if (nodes > L.conditionNodes) {
      issues.push({ path, rule: "size", message: `a condition may hold at most ${L.conditionNodes} operators and values` });
      return;
    }
    if (nesting > 3 * L.conditionDepth) {
      issues.push(depthIssue(path));
      return;
    }
    if (depth > L.conditionDepth && node !== null && typeof node === "object" && !Array.isArray(node)) {
      issues.push(depthIssue(path));
      return;
    }
    if (node === null || typeof node === "boolean") return;
    if (typeof node === "number") {
      if (!Number.isFinite(node)) issues.push({ path, rule: "literal", message: "numbers must be finite" });
      return;
    }
    if (typeof node === "string") {
      if (node.length > L.conditionStringLength)
        issues.push({ path, rule: "literal", message: `strings may be at most ${L.conditionStringLength} characters` });
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...path, index], depth, nesting + 1));
      return;
    }
    if (typeof node !== "object") {
      issues.push({ path, rule: "literal", message: "must be a JSON value" });
      return;
    }
    const keys = Object.keys(node);
    if (keys.length !== 1) {
      issues.push({ path, rule: "shape", message: "an operation must be an object with exactly one operator key" });
      return;
    }
    const operator = keys[0] as string;
    if (!allowed.has(operator)) {
      issues.push({
        path: [...path, operator],
        rule: "operator",
        message: `unknown operator "${operator.slice(0, 40)}"; allowed: ${CONDITION_OPERATORS.join(" ")}`,
      });
      return;
    }
    const args: unknown = (node as Record<string, unknown>)[operator];
    if (operator === "var") {
      checkVar(args, [...path, "var"]);
      return;
    }
    walk(args, [...path, operator], depth + 1, nesting + 1);
  };
  const checkVar = (args: unknown, path: (string | number)[]): void => {
    const isPath = (v: unknown): boolean =>
      (typeof v === "string" && v.length <= L.conditionStringLength) || (typeof v === "number" && Number.isInteger(v));
    const isLiteral = (v: unknown): boolean =>
      v === null || ["string", "number", "boolean"].includes(typeof v);
    if (isPath(args)) return;
    if (Array.isArray(args) && args.length >= 1 && args.length <= 2 && isPath(args[0]) && (args.length === 1 || isLiteral(args[1]))) {
      if (typeof args[1] === "string" && args[1].length > L.conditionStringLength)
        issues.push({ path: [...path, 1], rule: "literal", message: `strings may be at most ${L.conditionStringLength} characters` });
      return;
    }
    issues.push({ path, rule: "shape", message: 'var takes a variable path ("amount", "user.name") or [path, default]' });
  };
  if (isAlways(condition)) return [];
  walk(condition, [], 1);
  return issues;
}

/**
 * zod schema of a variation condition: a JsonLogic object checked by {@link conditionIssues}, so an
 * unknown operator is refused when the config is saved, with the path to it.
 */
export const conditionSchema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  for (const issue of conditionIssues(value)) {
    ctx.addIssue({ code: "custom", path: issue.path, message: issue.message, params: { rule: `condition_${issue.rule}` } });
  }
});

/** The variables a condition sees: the alert's data plus type, platform, enabled and random. */
export type ConditionContext = Record<string, unknown>;

/** A compiled condition: true when the alert matches. Never throws. */
export type CompiledCondition = (context: ConditionContext) => boolean;

/** json-logic-engine marks generated code with this registered symbol. */
const COMPILED = Symbol.for("json_logic_compiled");
/** json-logic-engine treats a function inside generated code as async unless marked with this. */
const SYNC = Symbol.for("json_logic_sync");

/** Builds logic with the engine, refusing anything that would compile to an async function. */
function buildSync(logic: unknown): (context: ConditionContext) => unknown {
  const run = logicEngine().build(logic) as (context: ConditionContext) => unknown;
  if (run.constructor.name === "AsyncFunction") throw new TypeError("condition compiled to an async function");
  return run;
}

type Comparison = (a: unknown, b: unknown) => boolean;
// JsonLogic's == and != are JavaScript's loose comparisons.
const COMPARISONS: Record<string, Comparison> = {
  "==": (a, b) => a == b,
  "!=": (a, b) => a != b,
  "===": (a, b) => a === b,
  "!==": (a, b) => a !== b,
  ">": (a, b) => (a as number) > (b as number),
  ">=": (a, b) => (a as number) >= (b as number),
  "<": (a, b) => (a as number) < (b as number),
  "<=": (a, b) => (a as number) <= (b as number),
};

interface BuildState {
  compile(strings: TemplateStringsArray, ...items: unknown[]): unknown;
}

/**
 * The engine with jsonlogic.com comparison semantics. json-logic-engine 5 follows the newer JSON
 * Logic community draft, where comparing a non-numeric string with a number throws; jsonlogic.com
 * (and json-logic-js, the reference interpreter) answers false, so `{"!":[{">=":["abc",5]}]}` is true.
 * The comparisons still compile inline (`(a >= b)`), so they cost nothing over the originals.
 */
function createEngine(): LogicEngine {
  const engine = newLogicEngine();
  for (const [operator, compare] of Object.entries(COMPARISONS)) {
    const between = operator === "<" || operator === "<=";
    engine.addMethod(
      operator,
      {
        method: (args: unknown) => {
          const list = Array.isArray(args) ? args : [args];
          if (between && list.length === 3) return compare(list[0], list[1]) && compare(list[1], list[2]);
          return compare(list[0], list[1]);
        },
        compile: (data: unknown, buildState: BuildState) => {
          if (!Array.isArray(data)) return false;
          // Each operand is bracketed: an operand may compile to a ternary (all, missing...) that
          // would otherwise take the comparison into its last branch.
          if (data.length === 2) return buildState.compile`((${data[0]}) ${{ [COMPILED]: operator }} (${data[1]}))`;
          // "between" (a < b < c): a direct call, no argument array.
          if (between && data.length === 3) {
            const test = (a: unknown, b: unknown, c: unknown): boolean => compare(a, b) && compare(b, c);
            (test as unknown as Record<symbol, boolean>)[SYNC] = true;
            return buildState.compile`${test}(${data[0]}, ${data[1]}, ${data[2]})`;
          }
          return false;
        },
      } as Parameters<LogicEngine["addMethod"]>[1],
      { deterministic: true },
    );
  }
  // `+` and `*` as json-logic-js computes them: every operand through parseFloat, so null, "" and
  // true are NaN (false in a condition) where the engine's Number() makes them 0 or 1.
  for (const [operator, method] of Object.entries(ARITHMETIC)) {
    engine.addMethod(operator, { method } as Parameters<LogicEngine["addMethod"]>[1], { deterministic: true });
  }
  return engine;
}

const parse = (value: unknown): number => parseFloat(value as string);

/** json-logic-js's `+` (a sum from 0 of parseFloat'd operands) and `*` (a product of them; one operand is answered as it is). */
const ARITHMETIC: Readonly<Record<"+" | "*", (args: unknown) => unknown>> = {
  "+": (args) => (Array.isArray(args) ? args : [args]).reduce((sum: number, value) => sum + parse(value), 0),
  "*": (args) => {
    const list = Array.isArray(args) ? args : [args];
    if (list.length === 0) return NaN;
    return list.slice(1).reduce((product: unknown, value) => parse(product) * parse(value), list[0]);
  },
};

/** JsonLogic truthiness: an empty array is false, everything else as in JavaScript. */
function truthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : !!value;
}

/**
 * Private operator behind {@link compileConditionMask}: `{"ovation:mask": [c0, c1, ...]}` compiles
 * to `(truthy(c0) ? 1 : 0) + (truthy(c1) ? 2 : 0) + ...`, so one call evaluates a whole list. The
 * save-time allow-list keeps it out of user conditions.
 */
const MASK_OPERATOR = "ovation:mask";
/** Conditions per mask: bit weights stay exact in a double up to 2^52. */
export const MASK_WIDTH = 52;

/**
 * The engine, built by {@link logicEngine} on the first compile rather than when the alerts entry is
 * imported (see "Import cost" in the package README).
 */
let engine: LogicEngine | undefined;

/**
 * Compiled JsonLogic truthiness of `item`, inline: the engine calls `engine.truthy(...)` for every
 * `and`/`or`/`!`/`if`, and in a function holding 50 conditions V8 stops inlining those calls. The
 * engine's scratch variable `prev` holds the value (each operand finishes before it is read).
 */
function inlineTruthy(buildState: BuildState, item: unknown): unknown {
  return buildState.compile`(Array.isArray(prev = ${item}) ? prev.length > 0 : !!prev)`;
}

type CompileHook = (data: unknown, buildState: BuildState) => unknown;
const logicCompilers: Record<string, CompileHook> = {
  and: (data, buildState) => {
    if (!Array.isArray(data) || data.length === 0) return false;
    let code: unknown = buildState.compile`${data[data.length - 1]}`;
    for (let i = data.length - 2; i >= 0; i--) code = buildState.compile`(!${inlineTruthy(buildState, data[i])} ? prev : ${code})`;
    return code;
  },
  or: (data, buildState) => {
    if (!Array.isArray(data) || data.length === 0) return false;
    let code: unknown = buildState.compile`${data[data.length - 1]}`;
    for (let i = data.length - 2; i >= 0; i--) code = buildState.compile`(${inlineTruthy(buildState, data[i])} ? prev : ${code})`;
    return code;
  },
  "!": (data, buildState) => buildState.compile`(!${inlineTruthy(buildState, Array.isArray(data) ? data[0] : data)})`,
  "!!": (data, buildState) => inlineTruthy(buildState, Array.isArray(data) ? data[0] : data),
  if: (data, buildState) => {
    if (!Array.isArray(data) || data.length < 3 || data.length % 2 === 0) return false;
    let code: unknown = buildState.compile`${data[data.length - 1]}`;
    for (let i = data.length - 3; i >= 0; i -= 2) {
      code = buildState.compile`(${inlineTruthy(buildState, data[i])} ? ${data[i + 1]} : ${code})`;
    }
    return code;
  },
};
// `in` against a literal list of strings/numbers: a chain of ===, so no array is built per call.
logicCompilers["in"] = (data, buildState) => {
  if (!Array.isArray(data) || data.length !== 2 || !Array.isArray(data[1]) || data[1].length === 0) return false;
  const list = data[1] as unknown[];
  if (!list.every((v) => typeof v === "string" || (typeof v === "number" && !Number.isNaN(v)))) return false;
  const strings = ["((prev = "];
  for (let i = 0; i < list.length; i++) strings.push(i === 0 ? ") === " : " || prev === ");
  strings.push(")");
  return buildState.compile(Object.assign(strings, { raw: strings }), data[0], ...list);
};
/**
 * The array operators with json-logic-js's semantics, which json-logic-engine 5 does not share: a
 * value that is not an array is the empty set (`all` of it is false, `map` gives `[]`, `reduce` its
 * initial value), and the sub-rule sees each item as its whole data (`reduce`: `current` and
 * `accumulator`). They run the sub-rule through the engine's interpreter, once per item of alert data.
 * `missing` and `missing_some` count null and "" as missing, as json-logic-js does.
 */
type LazyMethod = (args: unknown, context: unknown) => unknown;
function items(args: unknown, context: unknown): { list: unknown[] | undefined; rule: unknown; rest: unknown[] } {
  const [source, rule, ...rest] = Array.isArray(args) ? (args as unknown[]) : [args];
  const value = logicEngine().run(source, context);
  return { list: Array.isArray(value) ? value : undefined, rule, rest };
}
const arrayOperators: Record<string, LazyMethod> = {
  all: (args, context) => {
    const { list, rule } = items(args, context);
    return !!list && list.length > 0 && list.every((item) => truthy(logicEngine().run(rule, item)));
  },
  some: (args, context) => {
    const { list, rule } = items(args, context);
    return !!list && list.some((item) => truthy(logicEngine().run(rule, item)));
  },
  none: (args, context) => {
    const { list, rule } = items(args, context);
    return !list || !list.some((item) => truthy(logicEngine().run(rule, item)));
  },
  map: (args, context) => {
    const { list, rule } = items(args, context);
    return list ? list.map((item) => logicEngine().run(rule, item)) : [];
  },
  filter: (args, context) => {
    const { list, rule } = items(args, context);
    return list ? list.filter((item) => truthy(logicEngine().run(rule, item))) : [];
  },
  reduce: (args, context) => {
    const { list, rule, rest } = items(args, context);
    const initial = rest.length > 0 && rest[0] !== undefined ? logicEngine().run(rest[0], context) : null;
    if (!list) return initial;
    return list.reduce((accumulator: unknown, current) => logicEngine().run(rule, { current, accumulator }), initial);
  },
};
/** The keys of `keys` whose variable is undefined, null or "" (json-logic-js's definition of missing). */
function missingKeys(keys: unknown[], context: unknown): unknown[] {
  return keys.filter((key) => {
    const value = logicEngine().run({ var: key }, context);
    return value === undefined || value === null || value === "";
  });
}
function evaluatedKeys(args: unknown, context: unknown): unknown[] {
  const values = (Array.isArray(args) ? (args as unknown[]) : [args]).map((arg) => logicEngine().run(arg, context));
  return Array.isArray(values[0]) ? (values[0] as unknown[]) : values;
}
arrayOperators["missing"] = (args, context) => missingKeys(evaluatedKeys(args, context), context);
arrayOperators["missing_some"] = (args, context) => {
  const [need, options] = (Array.isArray(args) ? (args as unknown[]) : [args]).map((arg) => logicEngine().run(arg, context));
  const keys = Array.isArray(options) ? (options as unknown[]) : [];
  const missing = missingKeys(keys, context);
  return keys.length - missing.length >= Number(need) ? [] : missing;
};
const maskOperator = {
  lazy: true,
  method: (args: unknown, context: unknown) => {
    const list = args as unknown[];
    let mask = 0;
    for (let i = 0; i < list.length; i++) if (truthy(logicEngine().run(list[i], context))) mask += 2 ** i;
    return mask;
  },
  compile: (data: unknown, buildState: BuildState) => {
    const list = data as unknown[];
    if (list.length === 0) return buildState.compile`0`;
    const strings = ["(("];
    for (let i = 1; i < list.length; i++) strings.push(` ? ${2 ** (i - 1)} : 0) + (`);
    strings.push(` ? ${2 ** (list.length - 1)} : 0))`);
    return buildState.compile(Object.assign(strings, { raw: strings }), ...list.map((item) => inlineTruthy(buildState, item)));
  },
} as Parameters<LogicEngine["addMethod"]>[1];

/**
 * `{"var": [path, default]}` with a default other than null, read as json-logic-js reads it: the
 * default when a step of the path is null or undefined or the value is undefined, the value itself
 * otherwise (a stored null too). Optional chaining stops at the first null or undefined step, so
 * `context?.["a"]?.["b"]` is undefined exactly where json-logic-js answers the default. Undefined
 * (not compiled here) for any other `var`; false (the engine interprets it) for a path this does not
 * compile (empty, computed, `../`).
 */
function compileVarWithDefault(data: unknown, buildState: BuildState): unknown {
  if (!Array.isArray(data) || data.length !== 2 || data[1] === undefined || data[1] === null) return undefined;
  const key: unknown = data[0];
  if (typeof key !== "string" && typeof key !== "number") return false;
  const path = String(key);
  if (path === "" || path.includes("../")) return false;
  const access = path
    .split(".")
    .map((piece) => `?.[${JSON.stringify(piece)}]`)
    .join("");
  const strings = [`((prev = context${access}) === undefined ? `, ` : typeof prev === "function" ? null : prev)`];
  return buildState.compile(Object.assign(strings, { raw: strings }), data[1]);
}

/** The configured engine, built on its first use. */
function logicEngine(): LogicEngine {
  if (engine) return engine;
  const built = createEngine();
  // Alert data is JSON, so the engine's iterable-aware truthiness is not needed on the hot path.
  (built as unknown as { truthy: (value: unknown) => boolean }).truthy = truthy;
  for (const [operator, compile] of Object.entries(logicCompilers)) {
    const original = (built as unknown as { methods: Record<string, object> }).methods[operator];
    const definition = typeof original === "function" ? { method: original, lazy: false } : original;
    built.addMethod(operator, { ...definition, compile } as unknown as Parameters<LogicEngine["addMethod"]>[1]);
  }
  for (const [operator, method] of Object.entries(arrayOperators)) {
    built.addMethod(operator, { lazy: true, method } as unknown as Parameters<LogicEngine["addMethod"]>[1], { deterministic: false });
  }
  // `var` with a default: json-logic-js answers the default for a missing value only (a stored null
  // is null, so `{"var":["a",1]}` of `{"a":null}` is null); the engine's compiled form (`?? default`)
  // answers it for null too. Such a `var` compiles to `compileVarWithDefault`'s code; a `var` without
  // a default keeps the engine's compiled form (null either way).
  const varDefinition = (built as unknown as { methods: Record<string, { compile: CompileHook }> }).methods["var"];
  if (varDefinition) {
    const compileVar = varDefinition.compile;
    const compile: CompileHook = (data, buildState) => compileVarWithDefault(data, buildState) ?? compileVar(data, buildState);
    built.addMethod("var", { ...varDefinition, compile } as unknown as Parameters<LogicEngine["addMethod"]>[1]);
  }
  built.addMethod(MASK_OPERATOR, maskOperator, { deterministic: false });
  engine = built;
  return built;
}

const always: CompiledCondition = () => true;
const never: CompiledCondition = () => false;

/** The empty object `{}`: the condition that always holds. */
function isAlways(condition: unknown): boolean {
  return condition !== null && typeof condition === "object" && !Array.isArray(condition) && Object.keys(condition).length === 0;
}

/** A literal rule (not an operation): its value does not depend on the data. */
function isLiteral(condition: unknown): boolean {
  return condition === null || typeof condition !== "object";
}

/**
 * Compiles a (validated) condition to a function with json-logic-engine. A comparison the engine
 * refuses at run time (for example `>=` between a name and a number) makes the condition false, the
 * way JsonLogic's reference interpreter answers it. Where the page forbids `new Function` (a strict
 * Content-Security-Policy), the engine's interpreter is used instead.
 */
export function compileCondition(condition: unknown): CompiledCondition {
  if (isAlways(condition)) return always;
  if (isLiteral(condition)) return truthy(condition) ? always : never;
  let run: (context: ConditionContext) => unknown;
  try {
    run = buildSync(condition);
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    const interpreter = logicEngine();
    run = (context) => interpreter.run(condition, context);
  }
  return (context) => {
    try {
      return truthy(run(context));
    } catch {
      return false;
    }
  };
}

/** Several conditions evaluated in one call: bit i of the result (weight 2^i) is condition i. */
export type CompiledConditionMask = (context: ConditionContext) => number;

/**
 * Compiles up to {@link MASK_WIDTH} (validated) conditions into one function that returns a bit mask
 * of those that hold: a single compiled call instead of one call per condition, which is what keeps
 * resolveAlert at millions a second. If a condition throws at run time (for example `in` on a
 * number), that call falls back to evaluating each condition on its own, with the same answers as
 * {@link compileCondition}.
 */
export function compileConditionMask(conditions: readonly unknown[]): CompiledConditionMask {
  if (conditions.length > MASK_WIDTH) throw new RangeError(`at most ${MASK_WIDTH} conditions per mask`);
  const singles = conditions.map(compileCondition);
  const slow: CompiledConditionMask = (context) => {
    let mask = 0;
    for (let i = 0; i < singles.length; i++) if ((singles[i] as CompiledCondition)(context)) mask += 2 ** i;
    return mask;
  };
  const logic = { [MASK_OPERATOR]: conditions.map((c) => (isAlways(c) ? true : c)) };
  let run: (context: ConditionContext) => unknown;
  try {
    run = buildSync(logic);
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    return slow;
  }
  return (context) => {
    try {
      return run(context) as number;
    } catch {
      return slow(context);
    }
  };
}

/**
 * The top-level variable names the conditions read (`user.name` reads `user`), or undefined when
 * they may read the whole context (`{"var": ""}`, `missing`, `missing_some`).
 */
export function conditionVariables(conditions: readonly unknown[]): Set<string> | undefined {
  const names = new Set<string>();
  let whole = false;
  const walk = (node: unknown): void => {
    if (whole || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    for (const [operator, args] of Object.entries(node)) {
      if (operator === "missing" || operator === "missing_some") whole = true;
      if (operator === "var") {
        const path: unknown = Array.isArray(args) ? args[0] : args;
        const root = String(path ?? "").split(".")[0] ?? "";
        if (root === "") whole = true;
        else names.add(root);
        if (Array.isArray(args)) args.slice(1).forEach(walk);
      } else walk(args);
    }
  };
  conditions.forEach(walk);
  return whole ? undefined : names;
}

/**
 * The values a condition forces `variable` to (for example `{"===":[{"var":"type"},"cheer"]}` forces
 * type to "cheer"), or undefined when it does not constrain it. Used to skip variations that cannot
 * match an alert's type or platform without running them; conservative by construction.
 */
export function forcedValues(condition: unknown, variable: string): ReadonlySet<string> | undefined {
  if (condition === null || typeof condition !== "object" || Array.isArray(condition)) return undefined;
  const keys = Object.keys(condition);
  if (keys.length !== 1) return undefined;
  const operator = keys[0] as string;
  const args: unknown = (condition as Record<string, unknown>)[operator];
  const isVar = (node: unknown): boolean => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return false;
    const v = (node as Record<string, unknown>)["var"];
    if (Object.keys(node).length !== 1) return false;
    return v === variable || (Array.isArray(v) && v[0] === variable);
  };
  if ((operator === "===" || operator === "==") && Array.isArray(args) && args.length === 2) {
    const [a, b] = args as [unknown, unknown];
    if (isVar(a) && typeof b === "string") return new Set([b]);
    if (isVar(b) && typeof a === "string") return new Set([a]);
    return undefined;
  }
  if (operator === "in" && Array.isArray(args) && args.length === 2 && isVar(args[0]) && Array.isArray(args[1])) {
    const list = args[1] as unknown[];
    return list.every((v) => typeof v === "string") ? new Set(list as string[]) : undefined;
  }
  if (operator === "and" && Array.isArray(args)) {
    let result: Set<string> | undefined;
    for (const part of args) {
      const forced = forcedValues(part, variable);
      if (!forced) continue;
      result = result ? new Set([...result].filter((v) => forced.has(v))) : new Set(forced);
    }
    return result;
  }
  if (operator === "or" && Array.isArray(args) && args.length > 0) {
    const result = new Set<string>();
    for (const part of args) {
      const forced = forcedValues(part, variable);
      if (!forced) return undefined;
      for (const v of forced) result.add(v);
    }
    return result;
  }
  return undefined;
}
