/**
 * Twig's `matches` takes a PCRE-style `/pattern/flags` string. This module reads that string and
 * turns it into what V8's linear-time regular expression engine (the `l` flag, enabled in the
 * sandbox process with `--enable-experimental-regexp-engine`) runs: matching time grows linearly
 * with the input, so no pattern can backtrack catastrophically. That engine has no `i` flag and no
 * `u` flag: `i` is done here by rewriting each letter as both its cases, `u` is accepted and
 * ignored. It imports nothing, so the host checks literal patterns at save time with the same code.
 */

const CLOSING: Record<string, string> = { "(": ")", "{": "}", "[": "]", "<": ">" };

/** A `/pattern/flags` string, read. */
export interface TwigRegexSource {
  readonly pattern: string;
  /** JavaScript flags to compile with (`m`, `s`; `i` already applied to the pattern). */
  readonly flags: string;
}

function bothCases(c: string): string {
  const lower = c.toLowerCase();
  const upper = c.toUpperCase();
  return lower !== upper && lower.length === 1 && upper.length === 1 ? lower + upper : "";
}

/** The end of the escape sequence starting at `i` (a backslash). */
function escapeEnd(p: string, i: number): number {
  const n = p.charAt(i + 1);
  if ((n === "u" || n === "p" || n === "P" || n === "k") && p.charAt(i + 2) === "{") {
    const close = p.indexOf("}", i);
    return close === -1 ? p.length : close + 1;
  }
  if (n === "k" && p.charAt(i + 2) === "<") {
    const close = p.indexOf(">", i);
    return close === -1 ? p.length : close + 1;
  }
  if (n === "u") return Math.min(p.length, i + 6);
  if (n === "x") return Math.min(p.length, i + 4);
  if (n === "c") return Math.min(p.length, i + 3);
  return Math.min(p.length, i + 2);
}

/** The pattern matching what `p` matches, ignoring case (letters of classes and literals doubled). */
export function foldCase(p: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p.charAt(i);
    if (c === "\\") {
      const end = escapeEnd(p, i);
      out += p.slice(i, end);
      i = end - 1;
      continue;
    }
    if (inClass) {
      if (c === "]") {
        inClass = false;
        out += c;
      } else if (p.charAt(i + 1) === "-" && p.charAt(i + 2) !== "]" && p.charAt(i + 2) !== "" && p.charAt(i + 2) !== "\\") {
        // A range a-z: add the other case's range when both ends are letters of one case.
        const to = p.charAt(i + 2);
        out += c + "-" + to;
        const [a, b] = [bothCases(c), bothCases(to)];
        if (a && b) {
          const flip = (x: string): string => (x === x.toLowerCase() ? x.toUpperCase() : x.toLowerCase());
          out += flip(c) + "-" + flip(to);
        }
        i += 2;
      } else {
        out += bothCases(c) || c;
      }
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      if (p.charAt(i + 1) === "^") {
        out += "^";
        i++;
      }
      continue;
    }
    if (c === "(" && p.charAt(i + 1) === "?" && p.charAt(i + 2) === "<" && /[a-zA-Z_$]/.test(p.charAt(i + 3))) {
      // A group name: not letters to match.
      const close = p.indexOf(">", i);
      const end = close === -1 ? p.length : close + 1;
      out += p.slice(i, end);
      i = end - 1;
      continue;
    }
    if (c === "{") {
      const close = p.indexOf("}", i);
      if (close !== -1 && /^\{\d*,?\d*\}$/.test(p.slice(i, close + 1))) {
        out += p.slice(i, close + 1);
        i = close;
        continue;
      }
    }
    const both = bothCases(c);
    out += both ? "[" + both + "]" : c;
  }
  return out;
}

/** Reads `/pattern/flags` (any non-alphanumeric delimiter, or bracket pairs); throws a SyntaxError saying why not. */
export function readTwigRegex(source: string): TwigRegexSource {
  const delimiter = source.charAt(0);
  if (source.length < 2 || /[a-zA-Z0-9\\\s]/.test(delimiter)) {
    throw new SyntaxError('matches: "' + source.slice(0, 40) + '" is not a /pattern/flags regular expression (the delimiter must not be a letter, digit, backslash or space)');
  }
  const closing = CLOSING[delimiter] ?? delimiter;
  const end = source.lastIndexOf(closing);
  if (end < 1) throw new SyntaxError('matches: "' + source.slice(0, 40) + '" has no ending delimiter ' + closing);
  const modifiers = source.slice(end + 1);
  if (!/^[imsu]*$/.test(modifiers)) throw new SyntaxError('matches: unsupported flags "' + modifiers.slice(0, 10) + '" (i, m, s and u are)');
  const body = source.slice(1, end);
  return {
    pattern: modifiers.includes("i") ? foldCase(body) : body,
    flags: (modifiers.includes("m") ? "m" : "") + (modifiers.includes("s") ? "s" : ""),
  };
}
