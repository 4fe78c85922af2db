import { readTwigRegex } from "./regex.js";
import { isSafe } from "./runtime.js";
import { str } from "./values.js";

const regexCache = new Map<string, RegExp>();

/** True when this V8 runs the linear-time regular expression engine (the `l` flag). */
function linearEngine(): boolean {
  try {
    // eslint-disable-next-line no-invalid-regexp -- `l` is V8's linear-engine flag (see regex.ts)
    new RegExp("", "l");
    return true;
  } catch {
    return false;
  }
}
let linear: boolean | undefined;

/** A PCRE-style `/pattern/flags` string as a RegExp of V8's linear-time engine (cached). */
export function twigRegex(source: string): RegExp {
  const cached = regexCache.get(source);
  if (cached) return cached;
  if (linear === undefined) linear = linearEngine();
  // Never fall back to the backtracking engine: a hostile pattern could then run for ever.
  if (!linear) throw new Error("matches: the linear-time regular expression engine is not enabled in this process");
  const { pattern, flags } = readTwigRegex(source);
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, flags + "l");
  } catch (error) {
    throw new SyntaxError('matches: "' + source.slice(0, 40) + '" is not a pattern this engine runs in linear time (no backreferences, lookarounds or \\p{...})', { cause: error });
  }
  if (regexCache.size > 100) regexCache.clear();
  regexCache.set(source, regex);
  return regex;
}

function isString(v: unknown): boolean {
  return typeof v === "string" || isSafe(v);
}

/** Twig's `starts with` and `ends with` (true only between strings) and `matches` (1 or 0, as preg_match). */
export function twigStringTest(op: string, a: unknown, b: unknown): boolean | number {
  if (op === "matches") return a === undefined || a === null ? 0 : twigRegex(str(b)).test(str(a)) ? 1 : 0;
  if (!isString(a) || !isString(b)) return false;
  const s = str(a);
  const t = str(b);
  if (op === "starts") return s.slice(0, t.length) === t;
  return t.length === 0 || s.slice(-t.length) === t;
}
