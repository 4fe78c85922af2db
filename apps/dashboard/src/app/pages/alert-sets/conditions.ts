/**
 * The condition builder's model of a variation's JsonLogic: a list of clauses that must all hold.
 * `toJsonLogic` writes it, `fromJsonLogic` reads any condition written that way back (and returns
 * null for a condition the builder cannot show, which then stays editable as raw JSON only).
 */

/** Comparison operators the builder offers for a data value. */
export const COMPARISONS = ["==", "!=", ">", ">=", "<", "<="] as const;
/** A comparison operator. */
export type Comparison = (typeof COMPARISONS)[number];

/** One clause of a condition. */
export type Clause =
  | { kind: "type"; value: string }
  | { kind: "platform"; value: string }
  /** `min <= data.variable <= max` (JsonLogic's three-argument `<=`). */
  | { kind: "range"; variable: string; min: number; max: number }
  /** `data.variable <op> value`. */
  | { kind: "compare"; variable: string; op: Comparison; value: string | number | boolean }
  /** Shown for `percent` % of alerts: `random <= percent` (random is 1..100). */
  | { kind: "random"; percent: number };

/** A JsonLogic rule (any JSON). */
export type JsonLogic = unknown;

function varOf(value: unknown): string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== "var") return null;
  const path = (value as { var: unknown }).var;
  return typeof path === "string" && path !== "" ? path : null;
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** The JsonLogic of one clause. */
export function clauseToJsonLogic(clause: Clause): JsonLogic {
  switch (clause.kind) {
    case "type":
    case "platform":
      return { "===": [{ var: clause.kind }, clause.value] };
    case "range":
      return { "<=": [clause.min, { var: clause.variable }, clause.max] };
    case "compare":
      return { [clause.op]: [{ var: clause.variable }, clause.value] };
    case "random":
      return { "<=": [{ var: "random" }, clause.percent] };
  }
}

/** The condition for clauses: `{}` (always) for none, the clause itself for one, `and` of them otherwise. */
export function toJsonLogic(clauses: readonly Clause[]): JsonLogic {
  if (clauses.length === 0) return {};
  if (clauses.length === 1) return clauseToJsonLogic(clauses[0] as Clause);
  return { and: clauses.map(clauseToJsonLogic) };
}

/** Reads one rule as a clause, or null. */
export function clauseFromJsonLogic(rule: JsonLogic): Clause | null {
  if (rule === null || typeof rule !== "object" || Array.isArray(rule)) return null;
  const entries = Object.entries(rule);
  if (entries.length !== 1) return null;
  const [op, args] = entries[0] as [string, unknown];
  if (!Array.isArray(args)) return null;
  if ((op === "===" || op === "==") && args.length === 2) {
    const variable = varOf(args[0]);
    if ((variable === "type" || variable === "platform") && typeof args[1] === "string" && op === "===") return { kind: variable, value: args[1] };
  }
  if (op === "<=" && args.length === 3) {
    const variable = varOf(args[1]);
    if (variable !== null && typeof args[0] === "number" && typeof args[2] === "number") return { kind: "range", variable, min: args[0], max: args[2] };
  }
  if (op === "<=" && args.length === 2 && varOf(args[0]) === "random" && typeof args[1] === "number") return { kind: "random", percent: args[1] };
  if ((COMPARISONS as readonly string[]).includes(op) && args.length === 2) {
    const variable = varOf(args[0]);
    if (variable !== null && variable !== "type" && variable !== "platform" && variable !== "random" && isScalar(args[1])) {
      return { kind: "compare", variable, op: op as Comparison, value: args[1] };
    }
  }
  return null;
}

/** The builder's clauses for a condition, or null when the builder cannot show it. */
export function fromJsonLogic(rule: JsonLogic): Clause[] | null {
  if (rule !== null && typeof rule === "object" && !Array.isArray(rule) && Object.keys(rule).length === 0) return [];
  const and = rule !== null && typeof rule === "object" && !Array.isArray(rule) && Object.keys(rule).length === 1 ? (rule as { and?: unknown }).and : undefined;
  const rules = Array.isArray(and) ? and : [rule];
  const clauses: Clause[] = [];
  for (const item of rules) {
    const clause = clauseFromJsonLogic(item);
    if (clause === null) return null;
    clauses.push(clause);
  }
  return clauses;
}

/** A short sentence for a clause ("type is cheer", "amount between 100 and 499"). */
export function describeClause(clause: Clause): string {
  switch (clause.kind) {
    case "type":
      return `type is ${clause.value}`;
    case "platform":
      return `platform is ${clause.value}`;
    case "range":
      return `${clause.variable} between ${clause.min} and ${clause.max}`;
    case "compare":
      return `${clause.variable} ${clause.op} ${JSON.stringify(clause.value)}`;
    case "random":
      return `${clause.percent} % of alerts`;
  }
}

/** A sentence for a whole condition (for lists), or "custom condition" when the builder cannot read it. */
export function describeCondition(rule: JsonLogic): string {
  const clauses = fromJsonLogic(rule);
  if (clauses === null) return "custom condition";
  if (clauses.length === 0) return "every alert";
  return clauses.map(describeClause).join(" and ");
}
