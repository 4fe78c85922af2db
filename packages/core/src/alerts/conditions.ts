import { LogicEngine } from "json-logic-engine";
import { z } from "zod";
import { ALERT_LIMITS } from "./limits.js";

/**
 * JsonLogic operators a variation condition may use. Logic, comparison, arithmetic, string and
 * array tests of jsonlogic.com; operators of json-logic-engine beyond the JsonLogic standard (`throw`,
 * `try`, `preserve`, `val`, `map`, `reduce`...) are refused so a saved config stays portable to any
 * JsonLogic implementation.
 */
export const CONDITION_OPERATORS = [
  "var", "missing", "missing_some",
  "and", "or", "!", "!!", "if", "?:",
  "==", "===", "!=", "!==", ">", ">=", "<", "<=",
  "in", "cat", "substr",
  "+", "-", "*", "/", "%", "min", "max",
  "some", "all", "none",
] as const;

/** A JsonLogic operator allowed in conditions. */
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

const allowed: ReadonlySet<string> = new Set(CONDITION_OPERATORS);

/** A JsonLogic condition as stored in a variation. */
export type Condition = { [operator: string]: unknown };

/** One problem found in a condition: where (relative to the condition) and which rule it breaks. */
export interface ConditionIssue {
  readonly path: (string | number)[];
  readonly rule: "operator" | "depth" | "size" | "shape" | "literal";
  readonly message: string;
}

/**
 * Checks a condition against the rules applied when a config is saved: only allowed operators, one
 * operator per object, `var` takes a path (and optionally a default), depth and size bounded. The
 * empty object `{}` is allowed at the top only and means "always".
 */
export function conditionIssues(condition: unknown): ConditionIssue[] {
  const issues: ConditionIssue[] = [];
  let nodes = 0;
  const L = ALERT_LIMITS;
  const walk = (node: unknown, path: (string | number)[], depth: number): void => {
    if (issues.length >= 20) return;
    nodes++;
    if (nodes === L.conditionNodes + 1) {
      issues.push({ path, rule: "size", message: `a condition may hold at most ${L.conditionNodes} operators and values` });
      return;
    }
    if (depth > L.conditionDepth && node !== null && typeof node === "object" && !Array.isArray(node)) {
      issues.push({ path, rule: "depth", message: `a condition may be nested at most ${L.conditionDepth} levels deep` });
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
      node.forEach((item, index) => walk(item, [...path, index], depth));
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
    walk(args, [...path, operator], depth + 1);
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
  if (condition === null || typeof condition !== "object" || Array.isArray(condition)) {
    return [{ path: [], rule: "shape", message: "a condition must be a JsonLogic object" }];
  }
  if (Object.keys(condition).length === 0) return [];
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
  const engine = new LogicEngine();
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
          if (!Array.isArray(data) || data.length !== 2) return false;
          return buildState.compile`(${data[0]} ${{ [COMPILED]: operator }} ${data[1]})`;
        },
      } as Parameters<LogicEngine["addMethod"]>[1],
      { deterministic: true },
    );
  }
  return engine;
}

const engine = createEngine();

const always: CompiledCondition = () => true;

/**
 * Compiles a (validated) condition to a function with json-logic-engine. A comparison the engine
 * refuses at run time (for example `>=` between a name and a number) makes the condition false, the
 * way JsonLogic's reference interpreter answers it. Where the page forbids `new Function` (a strict
 * Content-Security-Policy), the engine's interpreter is used instead.
 */
export function compileCondition(condition: Condition): CompiledCondition {
  if (Object.keys(condition).length === 0) return always;
  let run: (context: ConditionContext) => unknown;
  try {
    run = engine.build(condition) as (context: ConditionContext) => unknown;
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    run = (context) => engine.run(condition, context);
  }
  return (context) => {
    try {
      return !!engine.truthy(run(context));
    } catch {
      return false;
    }
  };
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
