import { formatDate } from "./date.js";
import { random } from "./random.js";
import { isSafe } from "./runtime.js";
import { buildQuery, rawUrlEncode, striptags } from "./twig-ops.js";
import { escape } from "./escape.js";
import { checkSize, entries, fromEntries, isEmpty, isObject, renumber, requireFunction, str, truthy, values } from "./values.js";
import type { Key } from "./values.js";

/** A filter: the filtered value first, then the filter's arguments. */
export type Filter = (value: unknown, ...args: unknown[]) => unknown;

function isText(v: unknown): boolean {
  return typeof v === "string" || isSafe(v);
}

function format(v: unknown, ...args: unknown[]): string {
  let next = 0;
  return str(v).replace(/%(?:%|(0?)(\d{0,3})(?:\.(\d{1,2}))?([sdf]))/g, (all, zero: string, width: string, precision: string | undefined, type: string) => {
    if (all === "%%") return "%";
    const arg = args[next++];
    let out = type === "s" ? str(arg) : type === "d" ? String(Math.trunc(Number(arg)) || 0) : (Number(arg) || 0).toFixed(precision === undefined ? 6 : Number(precision));
    const w = Number(width) || 0;
    while (out.length < w) out = (zero ? "0" : " ") + out;
    return out;
  });
}

function mapHash(v: Record<string, unknown>, fn: (x: unknown, k: string) => unknown, keep: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const r = fn(v[k], k);
    if (!keep) out[k] = r;
    else if (truthy(r)) out[k] = v[k];
  }
  return out;
}

function split(v: unknown, delimiter: unknown, limit?: unknown): string[] {
  const s = str(v);
  const d = str(delimiter);
  const n = limit === undefined || limit === null ? 0 : Math.trunc(Number(limit));
  if (d === "") {
    const chars = Array.from(s);
    const size = n > 0 ? n : 1;
    const parts: string[] = [];
    for (let i = 0; i < chars.length; i += size) parts.push(chars.slice(i, i + size).join(""));
    return parts;
  }
  const parts = s.split(d);
  if (n > 0 && parts.length > n) return parts.slice(0, n - 1).concat([parts.slice(n - 1).join(d)]);
  if (n < 0) return parts.slice(0, Math.max(0, parts.length + n));
  return parts;
}

function trim(v: unknown, chars?: unknown, side?: unknown): string {
  const set = chars === undefined || chars === null ? null : Array.from(str(chars));
  const where = side === undefined ? "both" : str(side);
  const strip = (c: string): boolean => (set ? set.indexOf(c) !== -1 : /\s/.test(c));
  const list = Array.from(str(v));
  let a = 0;
  let b = list.length;
  if (where !== "right") while (a < b && strip(list[a] as string)) a++;
  if (where !== "left") while (b > a && strip(list[b - 1] as string)) b--;
  return list.slice(a, b).join("");
}

/**
 * Twig's `batch(size, fill, preserve_keys = true)`: chunks of `ceil(size)` items, keys kept; `fill`
 * completes the last chunk (its integer keys renumbered, as PHP's array_merge does).
 */
function batch(v: unknown, size: unknown, fill?: unknown, preserveKeys?: unknown): unknown[] {
  const n = Math.ceil(Number(size));
  if (!(n >= 1)) throw new RangeError("batch: the size must be 1 or more, got " + str(size).slice(0, 20));
  const pairs = entries(v);
  const keep = preserveKeys === undefined || truthy(preserveKeys);
  const chunks: Array<Array<[Key, unknown]>> = [];
  for (let i = 0; i < pairs.length; i += n) {
    const chunk = pairs.slice(i, i + n);
    chunks.push(keep ? chunk : renumber(chunk));
  }
  const last = chunks[chunks.length - 1];
  if (fill !== undefined && fill !== null && last && last.length < n) {
    checkSize(n, "batch");
    const merged = renumber(last);
    let next = merged.filter(([k]) => typeof k === "number").length;
    while (merged.length < n) merged.push([next++, fill]);
    chunks[chunks.length - 1] = merged;
  }
  return chunks.map(fromEntries);
}

function typeName(v: unknown): string {
  if (v === undefined || v === null) return "null";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "function") return "Closure";
  return "string";
}

/**
 * Twig's `replace(mapping)`: PHP's strtr, in one pass, longest key first, never replacing in what
 * was already replaced. `replace('from', 'to')` (nunjucks' form) works too; anything else is an error.
 */
function replace(v: unknown, from: unknown, to?: unknown): string {
  const s = str(v);
  if (!isObject(from) && !Array.isArray(from)) {
    if (to === undefined) throw new TypeError('The "replace" filter expects a sequence or a mapping, got "' + typeName(from) + '"');
    const search = str(from);
    return search === "" ? s : s.split(search).join(str(to));
  }
  const pairs = entries(from)
    .map(([k, x]): [string, string] => [String(k), str(x)])
    .filter(([k]) => k !== "")
    .sort((a, b) => b[0].length - a[0].length);
  if (pairs.length === 0) return s;
  let out = "";
  for (let i = 0; i < s.length; ) {
    const hit = pairs.find(([k]) => s.startsWith(k, i));
    if (hit) {
      out += hit[1];
      i += hit[0].length;
    } else {
      out += s[i];
      i++;
    }
  }
  return out;
}

/** The Twig filters available to templates. */
export const FILTERS: Record<string, Filter> = {
  abs: (v) => Math.abs(Number(v)),
  date: formatDate,
  default: (v, d) => (isEmpty(v) ? (d === undefined ? "" : d) : v),
  batch,
  // Keys are kept, lists' indexes too: `[1, 5, 3]|filter(v => v > 3)` is `{1: 5}` (Twig).
  filter: (v, fn) => {
    const f = requireFunction(fn, "filter");
    if (isObject(v)) return mapHash(v, f, true);
    // On the hot path (`badges|filter(b => ...)`): no pairs built unless an item is dropped before a kept one.
    const list = values(v);
    const out: unknown[] = [];
    let keys: number[] | null = null;
    for (let i = 0; i < list.length; i++) {
      const x = list[i];
      if (!truthy(f(x, i))) continue;
      if (keys === null && out.length !== i) keys = out.map((_, k) => k);
      if (keys !== null) keys.push(i);
      out.push(x);
    }
    if (keys === null) return out;
    const hash: Record<string, unknown> = {};
    for (let n = 0; n < keys.length; n++) hash[String(keys[n])] = out[n];
    return hash;
  },
  column: (v, name) => {
    const key = str(name);
    return values(v)
      .filter((x) => x !== null && typeof x === "object" && (x as Record<string, unknown>)[key] !== undefined)
      .map((x) => (x as Record<string, unknown>)[key]);
  },
  e: escape,
  escape,
  first: (v) => {
    if (isText(v)) return Array.from(str(v))[0] ?? "";
    const list = values(v);
    return list.length ? list[0] : null;
  },
  format,
  join: (v, glue, and) => {
    const list = values(v).map(str);
    const g = glue === undefined ? "" : str(glue);
    if (and === undefined || list.length < 2) return list.join(g);
    return list.slice(0, -1).join(g) + str(and) + list[list.length - 1];
  },
  json_encode: (v) => {
    const out = JSON.stringify(isSafe(v) ? v.val : v);
    return out === undefined ? "null" : out;
  },
  keys: (v) => {
    if (Array.isArray(v)) return v.map((_, k) => k);
    if (isObject(v)) return Object.keys(v);
    return [];
  },
  last: (v) => {
    if (isText(v)) {
      const chars = Array.from(str(v));
      return chars.length ? chars[chars.length - 1] : "";
    }
    const list = values(v);
    return list.length ? list[list.length - 1] : null;
  },
  length: (v) => {
    if (v === undefined || v === null) return 0;
    if (isText(v)) return Array.from(str(v)).length;
    if (Array.isArray(v)) return v.length;
    if (typeof v === "object") return Object.keys(v).length;
    return Array.from(String(v)).length;
  },
  lower: (v) => str(v).toLowerCase(),
  map: (v, fn) => {
    const f = requireFunction(fn, "map");
    if (isObject(v)) return mapHash(v, f, false);
    return values(v).map((x, k) => f(x, k));
  },
  // PHP's array_merge: integer keys renumbered after each other, string keys overwritten in place.
  merge: (a, b) => {
    if ((Array.isArray(a) || a === undefined || a === null) && !isObject(b)) {
      const merged = values(a).concat(values(b));
      checkSize(merged.length, "merge");
      return merged;
    }
    const out = new Map<Key, unknown>();
    let next = 0;
    for (const [k, x] of entries(a).concat(entries(b))) out.set(typeof k === "number" ? next++ : k, x);
    checkSize(out.size, "merge");
    return fromEntries(Array.from(out));
  },
  number_format: (v, decimals, point, thousands) => {
    const n = Number(v) || 0;
    const d = decimals === undefined || decimals === null ? 0 : Math.max(0, Math.min(20, Math.trunc(Number(decimals)) || 0));
    const fixed = Math.abs(n).toFixed(d).split(".");
    fixed[0] = (fixed[0] as string).replace(/\B(?=(\d{3})+(?!\d))/g, thousands === undefined ? "," : str(thousands));
    const text = fixed.join(point === undefined ? "." : str(point));
    return (n < 0 && Number(Math.abs(n).toFixed(d)) !== 0 ? "-" : "") + text;
  },
  random: (v) => random(v),
  raw: (v) => v,
  reduce: (v, fn, initial) => {
    const f = requireFunction(fn, "reduce");
    return entries(v).reduce((carry: unknown, [k, x]) => f(carry, x, k), initial === undefined ? null : initial);
  },
  replace,
  // A list's indexes are renumbered even with preserve_keys (a hash cannot hold integer keys in
  // descending order here); a hash's keys are kept.
  reverse: (v) => {
    if (isText(v) || typeof v === "number") return Array.from(str(v)).reverse().join("");
    if (v === undefined || v === null) return "";
    return fromEntries(renumber(entries(v).reverse()));
  },
  round: (v, precision, method) => {
    const p = precision === undefined ? 0 : Math.trunc(Number(precision));
    if (!(p >= -15 && p <= 15)) throw new RangeError("round: precision must be between -15 and 15");
    const f = Math.pow(10, p);
    const n = Number(v) * f;
    const how = method === undefined ? "common" : str(method);
    const r = how === "ceil" ? Math.ceil(n) : how === "floor" ? Math.floor(n) : n < 0 ? -Math.round(-n) : Math.round(n);
    return r / f;
  },
  slice: (v, start, length, preserveKeys) => {
    const text = isText(v) || typeof v === "number";
    const list = text ? Array.from(str(v)) : entries(v);
    let from = Math.trunc(Number(start) || 0);
    if (from < 0) from = Math.max(0, list.length + from);
    const to =
      length === undefined || length === null ? list.length : Number(length) < 0 ? list.length + Math.trunc(Number(length)) : from + Math.trunc(Number(length));
    const out = list.slice(from, Math.max(from, to));
    if (text) return out.join("");
    // array_slice: string keys stay; integer keys are renumbered unless preserve_keys.
    const pairs = out as Array<[Key, unknown]>;
    return fromEntries(truthy(preserveKeys) ? pairs : renumber(pairs));
  },
  sort: (v, fn) => {
    const list = values(v).slice();
    if (fn !== undefined) {
      const f = requireFunction(fn, "sort");
      return list.sort((a, b) => Number(f(a, b)) || 0);
    }
    return list.sort((a, b) => {
      if (typeof a === "number" && typeof b === "number") return a - b;
      const x = str(a);
      const y = str(b);
      return x < y ? -1 : x > y ? 1 : 0;
    });
  },
  split,
  striptags,
  trim,
  upper: (v) => str(v).toUpperCase(),
  url_encode: (v) => {
    if (isObject(v) || Array.isArray(v)) return buildQuery(v).join("&");
    return rawUrlEncode(str(v));
  },
};
