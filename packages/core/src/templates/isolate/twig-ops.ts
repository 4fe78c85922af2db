import { isSafe } from "./runtime.js";
import { isObject, requireFunction, str, truthy, values } from "./values.js";

/** `{{ x }}`: Twig prints `true` as `1` and `false` as nothing. */
export function twigPrint(v: unknown): unknown {
  if (v === true) return "1";
  if (v === false) return "";
  return v;
}

function numeric(s: string): boolean {
  return /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(s);
}

/** PHP 8's loose comparison (`==`), which Twig's `in` and `<=>` use. */
export function looseEquals(a: unknown, b: unknown): boolean {
  const x = isSafe(a) ? a.val : a;
  const y = isSafe(b) ? b.val : b;
  if (x === y) return true;
  if (x === undefined || x === null || typeof x === "boolean") return truthy(x) === truthy(y);
  if (y === undefined || y === null || typeof y === "boolean") return truthy(x) === truthy(y);
  if (typeof x === "number" && typeof y === "number") return x === y;
  if (typeof x === "number" || typeof y === "number") {
    const n = (typeof x === "number" ? x : y) as number;
    const s = typeof x === "number" ? y : x;
    if (typeof s !== "string") return false;
    return numeric(s) ? Number(s) === n : String(n) === s;
  }
  if (typeof x === "string" && typeof y === "string") return numeric(x) && numeric(y) ? Number(x) === Number(y) : false;
  if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((v, i) => looseEquals(v, y[i]));
  if (isObject(x) && isObject(y)) {
    const keys = Object.keys(x);
    return keys.length === Object.keys(y).length && keys.every((k) => k in y && looseEquals(x[k], y[k]));
  }
  return false;
}

/** Twig's `in`: loose comparison against a list's (or hash's) values; substring of a string. */
export function twigIn(needle: unknown, haystack: unknown): boolean {
  if (Array.isArray(haystack) || isObject(haystack)) return values(haystack).some((v) => looseEquals(needle, v));
  if (typeof haystack === "string" || isSafe(haystack)) {
    if (typeof needle !== "string" && typeof needle !== "number" && !isSafe(needle)) return false;
    const n = str(needle);
    return n === "" || str(haystack).includes(n);
  }
  return false;
}

/** `a <=> b`: -1, 0 or 1. */
export function twigSpaceship(a: unknown, b: unknown): number {
  if (looseEquals(a, b)) return 0;
  const x = typeof a === "number" || typeof b === "number" ? Number(a) : str(a);
  const y = typeof a === "number" || typeof b === "number" ? Number(b) : str(b);
  return x < y ? -1 : 1;
}

/** `list has some v => ...` / `has every`. */
export function twigHas(op: string, list: unknown, fn: unknown): boolean {
  const test = requireFunction(fn, `has ${op}`);
  const items = values(list);
  return op === "every" ? items.every((v) => truthy(test(v))) : items.some((v) => truthy(test(v)));
}

/** The iterable of `for k, v in x`: a list becomes a hash keyed by index. */
export function twigPairs(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  const out: Record<string, unknown> = {};
  v.forEach((item, i) => {
    out[String(i)] = item;
  });
  return out;
}

/** The iterable of `for v in x`: a hash's values (a list, string or anything else unchanged). */
export function twigLoopValues(v: unknown): unknown {
  return isObject(v) ? values(v) : v;
}

/** An operand of the bitwise operators, as an integer. */
export function twigInt(v: unknown): number {
  return Math.trunc(Number(isSafe(v) ? v.val : v)) || 0;
}

/** `{% with vars %}`: sets each key of the hash in the new scope. */
export function twigWith(frame: { set(name: string, value: unknown): void }, vars: unknown): void {
  if (!isObject(vars)) throw new TypeError("with expects a hash, for example {% with {'name': 'x'} %}");
  for (const key of Object.keys(vars)) {
    // frame.set splits dotted names into nested objects: a key is one plain name.
    if (key.includes(".") || key === "__proto__" || key === "constructor" || key === "prototype") throw new TypeError(`with: "${key.slice(0, 40)}" is not a variable name`);
    frame.set(key, vars[key]);
  }
}

/** Twig's `cycle(values, position)`. */
export function cycle(list: unknown, position: unknown): unknown {
  const items = values(list);
  if (items.length === 0) throw new RangeError("cycle() needs a non-empty list");
  const n = Math.trunc(Number(position)) || 0;
  return items[((n % items.length) + items.length) % items.length];
}

/** Twig's `striptags(allowable_tags)`: removes tags (and comments) except the allowed ones. */
export function striptags(v: unknown, allowed?: unknown): string {
  const allow = new Set((str(allowed).match(/<[a-zA-Z][a-zA-Z0-9]*>/g) ?? []).map((t) => t.slice(1, -1).toLowerCase()));
  return str(v)
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<\/?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g, (tag, name: string) => (allow.has(name.toLowerCase()) ? tag : ""));
}

/** PHP's rawurlencode (RFC 3986): also encodes `!'()*`, which encodeURIComponent keeps. */
export function rawUrlEncode(v: string): string {
  return encodeURIComponent(v).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

/** Twig's `url_encode` of a hash: PHP's http_build_query (RFC 3986), nested keys as `a[b]`. */
export function buildQuery(v: Record<string, unknown> | unknown[], prefix = ""): string[] {
  const out: string[] = [];
  const entries: Array<[string, unknown]> = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.keys(v).map((k) => [k, v[k]]);
  for (const [k, value] of entries) {
    const key = prefix === "" ? k : `${prefix}[${k}]`;
    if (value === null || value === undefined) continue;
    if (Array.isArray(value) || isObject(value)) out.push(...buildQuery(value, key));
    else out.push(`${rawUrlEncode(key)}=${rawUrlEncode(typeof value === "boolean" ? (value ? "1" : "0") : str(value))}`);
  }
  return out;
}
