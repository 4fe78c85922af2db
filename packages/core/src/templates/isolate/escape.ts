import { isSafe, rt } from "./runtime.js";
import { rawUrlEncode } from "./twig-ops.js";
import { str } from "./values.js";

function hex(n: number, width: number): string {
  let s = n.toString(16).toUpperCase();
  while (s.length < width) s = "0" + s;
  return s;
}

const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#039;" };
const JS_SHORT: Record<string, string> = { "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const ATTR_NAMED: Record<string, string> = { '"': "&quot;", "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/** Twig's escaping strategies (the `escape` / `e` filter), on UTF-16 text. */
const STRATEGIES: Record<string, (s: string) => string> = {
  html: (s) => s.replace(/[&<>"']/g, (c) => HTML[c] as string),
  // Every character but ASCII letters, digits, `,` `.` `_` as `\uHHHH` (UTF-16 units: astral characters become surrogate pairs).
  js: (s) => s.replace(/[^a-zA-Z0-9,._]/g, (c) => JS_SHORT[c] ?? "\\u" + hex(c.charCodeAt(0), 4)),
  css: (s) => s.replace(/[^a-zA-Z0-9]/gu, (c) => "\\" + hex(c.codePointAt(0) as number, 1) + " "),
  url: rawUrlEncode,
  html_attr: (s) =>
    s.replace(/[^a-zA-Z0-9,.\-_]/gu, (c) => {
      const code = c.codePointAt(0) as number;
      if ((code <= 0x1f && c !== "\t" && c !== "\n" && c !== "\r") || code === 0x7f) return "&#xFFFD;";
      if (code < 0x80) return ATTR_NAMED[c] ?? "&#x" + hex(code, 2) + ";";
      return "&#x" + hex(code, 4) + ";";
    }),
};

/** The strategies `escape` accepts (also checked when a template is saved). */
export const ESCAPE_STRATEGIES = Object.keys(STRATEGIES);

/** Twig's `escape(strategy = 'html')`: the result is marked safe, so it is never escaped twice. */
export function escape(v: unknown, strategy?: unknown): unknown {
  const name = strategy === undefined || strategy === null ? "html" : str(strategy);
  const fn = STRATEGIES[name];
  if (!fn) throw new TypeError('escape: unknown strategy "' + name.slice(0, 20) + '" (html, js, css, url, html_attr)');
  if (v === undefined || v === null || v === "") return "";
  if (isSafe(v) && name === "html") return v;
  return new rt.SafeString(fn(str(v)));
}
