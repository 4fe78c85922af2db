import { str } from "./values.js";

const regexCache = new Map<string, RegExp>();
const CLOSING: Record<string, string> = { "(": ")", "{": "}", "[": "]", "<": ">" };

/** A PCRE-style `/pattern/flags` string as a RegExp (cached; only the i, m, s and u flags). */
export function twigRegex(source: string): RegExp {
  const cached = regexCache.get(source);
  if (cached) return cached;
  const delimiter = source.charAt(0);
  const closing = CLOSING[delimiter] ?? delimiter;
  const end = source.lastIndexOf(closing);
  if (source.length < 2 || /[a-zA-Z0-9\\\s]/.test(delimiter) || end < 1) {
    throw new SyntaxError('matches: "' + source.slice(0, 40) + '" is not a /pattern/flags regular expression');
  }
  const flags = source.slice(end + 1);
  if (!/^[imsu]*$/.test(flags)) throw new SyntaxError('matches: unsupported flags "' + flags.slice(0, 10) + '"');
  const regex = new RegExp(source.slice(1, end), flags);
  if (regexCache.size > 100) regexCache.clear();
  regexCache.set(source, regex);
  return regex;
}

/** Twig's `starts with`, `ends with` and `matches` operators. */
export function twigStringTest(op: string, a: unknown, b: unknown): boolean {
  const s = str(a);
  const t = str(b);
  if (op === "starts") return s.slice(0, t.length) === t;
  if (op === "ends") return t.length === 0 || s.slice(-t.length) === t;
  return twigRegex(t).test(s);
}
