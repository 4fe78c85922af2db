import type { NjToken, NjTokenizer } from "./nunjucks-internals.js";
import { njLexer } from "./nunjucks-internals.js";

/** The nunjucks tokenizer's state this module reads (see the pinned-internals test). */
interface TokenizerState extends NjTokenizer {
  str: string;
  index: number;
  in_code: boolean;
  lineno: number;
  colno: number;
  forward(): void;
}

/** What `~` trims: spaces, tabs, NUL and vertical tabs, never newlines (Twig). */
const LINE_WHITESPACE = " \t\0\v";

/** A token, with `doubleQuoted` set on strings written with `"` (Twig interpolates `#{...}` in those). */
export interface TwigToken extends NjToken {
  doubleQuoted?: boolean;
}

/**
 * The nunjucks lexer with Twig's lexical rules on top:
 * - `}}` inside an expression closes hash literals while any is open (`{'a': {'b': 1}}`), instead
 *   of ending the tag;
 * - the first newline after a block tag (`%}`) or a comment (`#}`) is removed, as Twig (and PHP) do;
 * - string tokens remember whether they were double-quoted;
 * - `~` beside a delimiter (`{%~`, `~%}`, `{{~`, `~}}`, `{#~`, `~#}`) trims the spaces and tabs
 *   (not the newlines) on that side, as Twig's line-whitespace modifier does; `~%}` and `~#}` keep
 *   the newline that follows.
 */
export function lexTwig(source: string): NjTokenizer {
  const tokenizer = njLexer.lex(source, { trimBlocks: true }) as TokenizerState;
  const base = tokenizer.nextToken.bind(tokenizer);
  let depth = 0;
  const skipLineWhitespace = (): void => {
    while (LINE_WHITESPACE.includes(tokenizer.str.charAt(tokenizer.index)) && tokenizer.index < tokenizer.str.length) tokenizer.forward();
  };
  const next = (): TwigToken | null => {
    if (tokenizer.in_code && tokenizer.str.charAt(tokenizer.index) === "~") {
      const close = tokenizer.str.slice(tokenizer.index + 1, tokenizer.index + 3);
      if (close === "%}" || close === "}}") {
        const tok: TwigToken = {
          type: close === "%}" ? njLexer.TOKEN_BLOCK_END : njLexer.TOKEN_VARIABLE_END,
          value: close,
          lineno: tokenizer.lineno,
          colno: tokenizer.colno,
        };
        for (let i = 0; i < 3; i++) tokenizer.forward();
        tokenizer.in_code = false;
        depth = 0;
        skipLineWhitespace();
        return tok;
      }
    }
    if (tokenizer.in_code && depth > 0 && tokenizer.str.startsWith("}}", tokenizer.index)) {
      const tok: TwigToken = { type: njLexer.TOKEN_RIGHT_CURLY, value: "}", lineno: tokenizer.lineno, colno: tokenizer.colno };
      tokenizer.forward();
      depth--;
      return tok;
    }
    const quote = tokenizer.in_code ? tokenizer.str.charAt(tokenizer.index) : "";
    if (quote === '"') {
      const nested = interpolatedString(tokenizer.str, tokenizer.index);
      if (nested !== null) {
        const tok: TwigToken = { type: njLexer.TOKEN_STRING, value: nested.value, lineno: tokenizer.lineno, colno: tokenizer.colno, doubleQuoted: true };
        while (tokenizer.index < nested.end) tokenizer.forward();
        return tok;
      }
    }
    const tok = base() as TwigToken | null;
    if (!tok) return tok;
    if (tok.type === njLexer.TOKEN_LEFT_CURLY) depth++;
    else if (tok.type === njLexer.TOKEN_RIGHT_CURLY) depth = Math.max(0, depth - 1);
    else if (tok.type === njLexer.TOKEN_VARIABLE_START || tok.type === njLexer.TOKEN_BLOCK_START) {
      depth = 0;
      if (tokenizer.str.charAt(tokenizer.index) === "~") tokenizer.forward();
    } else if (tok.type === njLexer.TOKEN_STRING && quote === '"') tok.doubleQuoted = true;
    else if (tok.type === njLexer.TOKEN_COMMENT) {
      if (tok.value.endsWith("~#}")) skipLineWhitespace();
      else if (tokenizer.str.charAt(tokenizer.index) === "\n") tokenizer.forward();
    } else if (tok.type === njLexer.TOKEN_DATA && /^\{[%{#]~/.test(tokenizer.str.slice(tokenizer.index, tokenizer.index + 3))) {
      tok.value = tok.value.replace(/[ \t\0\v]+$/, "");
    }
    return tok;
  };
  tokenizer.nextToken = next;
  return tokenizer;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r" };

/**
 * A double-quoted string at `start` whose `#{...}` holds quotes of its own
 * (`"a #{"b" ~ x} c"`), which the nunjucks lexer would end at the inner quote: its value (escapes
 * read outside the interpolations, as nunjucks reads them; the expressions kept as written) and the
 * index after its closing quote. Null for every other string (the nunjucks lexer reads those).
 */
function interpolatedString(src: string, start: number): { value: string; end: number } | null {
  let value = "";
  let nestedQuote = false;
  for (let i = start + 1; i < src.length; ) {
    const c = src.charAt(i);
    if (c === "\\") {
      const next = src.charAt(i + 1);
      value += ESCAPES[next] ?? next;
      i += 2;
    } else if (c === '"') {
      return nestedQuote ? { value, end: i + 1 } : null;
    } else if (c === "#" && src.charAt(i + 1) === "{") {
      // Copy the expression up to its closing brace, skipping over the strings inside it.
      let depth = 1;
      let j = i + 2;
      while (j < src.length && depth > 0) {
        const d = src.charAt(j);
        if (d === '"' || d === "'") {
          if (d === '"') nestedQuote = true;
          j++;
          while (j < src.length && src.charAt(j) !== d) j += src.charAt(j) === "\\" ? 2 : 1;
        } else if (d === "{") depth++;
        else if (d === "}") depth--;
        j++;
      }
      if (depth > 0) return null;
      value += src.slice(i, j);
      i = j;
    } else {
      value += c;
      i++;
    }
  }
  return null;
}
