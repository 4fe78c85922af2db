import { isSafe, rt } from "./runtime.js";

/** A template value as text, as PHP converts it: null and false are "", true is "1". */
export function str(v: unknown): string {
  if (v === undefined || v === null || v === false) return "";
  if (v === true) return "1";
  if (isSafe(v)) return v.val;
  return String(v);
}

/** A plain object (a Twig hash), not an array nor a SafeString. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !isSafe(v);
}

/** Twig's `empty` test. */
export function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === "") return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isSafe(v)) return v.val === "";
  if (isObject(v)) return Object.keys(v).length === 0;
  return false;
}

/** PHP truthiness, as Twig tests conditions. */
export function truthy(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === "string") return v !== "" && v !== "0";
  if (typeof v === "number") return v !== 0 && v === v;
  if (typeof v === "boolean") return v;
  if (Array.isArray(v)) return v.length > 0;
  if (isSafe(v)) return v.val !== "" && v.val !== "0";
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}

/** Throws when a built list would exceed the item limit. */
export function checkSize(n: number, what: string): void {
  if (!(n <= rt.limits.maxItems)) throw new RangeError(what + " of " + n + " items exceeds the limit of " + rt.limits.maxItems);
}

/** The values of a list, hash or string (characters), as a list. */
export function values(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  if (typeof v === "string" || isSafe(v)) return Array.from(str(v));
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    return Object.keys(o).map((k) => o[k]);
  }
  return [v];
}

/** A template callback (an arrow function). */
export type Callback = (...args: unknown[]) => unknown;

/** Checks that a filter argument is an arrow function. */
export function requireFunction(fn: unknown, filter: string): Callback {
  if (typeof fn !== "function") throw new TypeError("the " + filter + " filter expects an arrow function, for example " + filter + "(v => v)");
  return fn as Callback;
}

/** A key of a Twig (PHP) array: a list's index or a hash's key. */
export type Key = string | number;

/** True for a hash key PHP would store as an integer ("0", "12", "-3"; not "01"). */
function isIntegerKey(k: string): boolean {
  return /^(0|-?[1-9]\d{0,14})$/.test(k);
}

/** The `[key, value]` pairs of a list (indexes), a hash (its keys) or a string (characters), in order. */
export function entries(v: unknown): Array<[Key, unknown]> {
  if (Array.isArray(v)) return v.map((x, i): [Key, unknown] => [i, x]);
  if (isObject(v)) return Object.keys(v).map((k): [Key, unknown] => [isIntegerKey(k) ? Number(k) : k, v[k]]);
  return values(v).map((x, i): [Key, unknown] => [i, x]);
}

/**
 * A Twig array from its pairs: a list when the keys are 0, 1, 2... in order, else a hash (so
 * `[1, 5, 3]|filter(v => v > 3)` keeps the key 1, as Twig does). A hash orders integer keys first,
 * ascending (JavaScript objects do); the filters that build one keep them ascending anyway.
 */
export function fromEntries(pairs: Array<[Key, unknown]>): unknown[] | Record<string, unknown> {
  if (pairs.every(([k], i) => k === i)) return pairs.map(([, x]) => x);
  const out: Record<string, unknown> = {};
  for (const [k, x] of pairs) out[String(k)] = x;
  return out;
}

/** PHP's renumbering (array_merge, array_slice, array_reverse): integer keys become 0, 1, 2...; string keys stay. */
export function renumber(pairs: Array<[Key, unknown]>, from = 0): Array<[Key, unknown]> {
  let next = from;
  return pairs.map(([k, x]): [Key, unknown] => [typeof k === "number" ? next++ : k, x]);
}
