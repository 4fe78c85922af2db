import type { NjNode, NjNodeClass, NjNodeList, NjToken, NjTokenizer } from "./nunjucks-internals.js";
import { njLexer, njNodes, njParser, nodeField, setNodeField } from "./nunjucks-internals.js";
import { lexTwig } from "./twig-lexer.js";
import type { TwigToken } from "./twig-lexer.js";

/** `params => body`: an arrow function (Twig 3) for the `filter`, `map`, `reduce` and `sort` filters. */
export const ArrowFunctionNode = njNodes.Node.extend("ArrowFunction", { fields: ["params", "body"] });
/** `a..b`: Twig's inclusive range operator. */
export const TwigRangeNode = njNodes.Node.extend("TwigRange", { fields: ["left", "right"] });
/** `a ?? b`: `b` when `a` is undefined or null (Twig). */
export const CoalesceNode = njNodes.Node.extend("TwigCoalesce", { fields: ["left", "right"] });
/** `a ?: b`: `a` when it is truthy, else `b` (Twig). */
export const ElvisNode = njNodes.Node.extend("TwigElvis", { fields: ["left", "right"] });
/** `a starts with b`, `a ends with b`, `a matches '/re/'` (Twig string tests; `op` names which). */
export const StringTestNode = njNodes.Node.extend("TwigStringTest", { fields: ["op", "left", "right"] });
/** `{% do expr %}`: evaluates an expression for its effect (Twig), printing nothing. */
export const DoNode = njNodes.Node.extend("TwigDo", { fields: ["expr"] });
/** A condition evaluated with Twig (PHP) truthiness: empty arrays, empty objects and "0" are false. */
export const TruthyNode = njNodes.Node.extend("Truthy", { fields: ["target"] });
/** `a xor b` (Twig): true when exactly one side is truthy. */
export const XorNode = njNodes.Node.extend("TwigXor", { fields: ["left", "right"] });
/** `a b-and b`, `b-or`, `b-xor` (Twig bitwise operators; `op` is `&`, `|` or `^`). */
export const BitwiseNode = njNodes.Node.extend("TwigBitwise", { fields: ["op", "left", "right"] });
/** `a <=> b` (Twig): -1, 0 or 1. */
export const SpaceshipNode = njNodes.Node.extend("TwigSpaceship", { fields: ["left", "right"] });
/** `list has some v => ...`, `has every` (Twig 3.x); `op` is `some` or `every`. */
export const HasNode = njNodes.Node.extend("TwigHas", { fields: ["op", "left", "right"] });
/** `{% with vars [only] %}...{% endwith %}` (Twig): a scope with extra variables. */
export const WithNode = njNodes.Node.extend("TwigWith", { fields: ["vars", "only", "body"] });

/** Node classes of nunjucks this parser builds, by name. */
export function nodeClass(name: string): NjNodeClass {
  return (njNodes as unknown as Record<string, NjNodeClass>)[name] as NjNodeClass;
}

const OPERATOR = njLexer.TOKEN_OPERATOR;

function isOp(tok: NjToken | null, value: string): boolean {
  return tok !== null && tok.type === OPERATOR && tok.value === value;
}

/**
 * The nunjucks parser taught Twig's extra syntax: arrow functions (`b => b.type == 'x'`,
 * `(carry, v) => carry + v`) and the `a..b` range operator. The lexer is left alone; the parser
 * joins adjacent `=` `>` tokens into `=>` and a float `1.` followed by `.` into `1` `..`.
 */
export class TwigParser extends (njParser.Parser as unknown as new (tokens: NjTokenizer) => InstanceType<typeof njParser.Parser>) {
  /** Tokens read ahead of the base parser's single `peeked` slot, in order. */
  private readonly ahead: NjToken[] = [];

  constructor(tokens: NjTokenizer) {
    super(tokens);
  }

  private pull(withWhitespace: boolean): NjToken | null {
    let tok = this.ahead.length > 0 ? (this.ahead.shift() ?? null) : this.tokens.nextToken();
    if (!withWhitespace) {
      while (tok && tok.type === njLexer.TOKEN_WHITESPACE) {
        tok = this.ahead.length > 0 ? (this.ahead.shift() ?? null) : this.tokens.nextToken();
      }
    }
    return tok;
  }

  /** The last significant token handed out (to recognize `is divisible by`, `is same as`). */
  private last: NjToken | null = null;

  /** The raw `n`-th token ahead, whitespace included, without consuming it. */
  private rawAhead(n: number): NjToken | null {
    while (this.ahead.length <= n) {
      const tok = this.tokens.nextToken();
      if (!tok) return null;
      this.ahead.push(tok);
    }
    return this.ahead[n] ?? null;
  }

  /** The next significant token ahead (whitespace skipped), without consuming it. */
  private lookahead(): NjToken | null {
    for (let i = 0; ; i++) {
      const tok = this.rawAhead(i);
      if (!tok || tok.type !== njLexer.TOKEN_WHITESPACE) return tok;
    }
  }

  override nextToken(withWhitespace?: boolean): NjToken | null {
    if (this.peeked) {
      const peeked = this.peeked;
      this.peeked = null;
      if (withWhitespace || peeked.type !== njLexer.TOKEN_WHITESPACE) return peeked;
    }
    const tok = this.twigToken(this.rawToken(withWhitespace));
    if (tok && tok.type !== njLexer.TOKEN_WHITESPACE) this.last = tok;
    return tok;
  }

  /** Open brackets of the expression being read (`(`, `[`, `{`), to tell arguments from hash entries. */
  private readonly brackets: string[] = [];

  /** Twig's multi-token operators, trailing commas and `name: value` arguments, on top of {@link twigMerge}. */
  private twigToken(tok: NjToken | null): NjToken | null {
    const out = this.twigMerge(tok);
    if (!out) return out;
    if (out.type === njLexer.TOKEN_LEFT_PAREN || out.type === "left-bracket" || out.type === njLexer.TOKEN_LEFT_CURLY) this.brackets.push(out.type);
    else if (out.type === njLexer.TOKEN_RIGHT_PAREN || out.type === njLexer.TOKEN_RIGHT_BRACKET || out.type === njLexer.TOKEN_RIGHT_CURLY) this.brackets.pop();
    else if (out.type === "variable-start" || out.type === "block-start") this.brackets.length = 0;
    else if (
      out.type === njLexer.TOKEN_SYMBOL &&
      this.brackets.at(-1) === njLexer.TOKEN_LEFT_PAREN &&
      this.last !== null &&
      (this.last.type === njLexer.TOKEN_LEFT_PAREN || this.last.type === njLexer.TOKEN_COMMA)
    ) {
      // `trim(side: 'left')`: Twig's other spelling of a named argument (`side='left'`).
      for (let i = 0; ; i++) {
        const next = this.rawAhead(i);
        if (!next || next.type !== njLexer.TOKEN_WHITESPACE) {
          if (next && next.type === njLexer.TOKEN_COLON) this.ahead[i] = { ...next, type: njLexer.TOKEN_OPERATOR, value: "=" };
          break;
        }
      }
    }
    return out;
  }

  private twigMerge(tok: NjToken | null): NjToken | null {
    if (!tok) return tok;
    const closing = (t: NjToken | null): boolean =>
      t !== null && (t.type === njLexer.TOKEN_RIGHT_BRACKET || t.type === njLexer.TOKEN_RIGHT_CURLY || t.type === njLexer.TOKEN_RIGHT_PAREN);
    if (tok.type === njLexer.TOKEN_COMMA && closing(this.lookahead())) {
      // A trailing comma in a list, hash or argument list (Twig allows it).
      return this.twigMerge(this.rawToken(false));
    }
    if (tok.type === njLexer.TOKEN_SYMBOL && !isOp(this.last, ".")) {
      // Twig's literals are case-insensitive: TRUE, False, NULL, None.
      const lower = tok.value.toLowerCase();
      if (lower === "true" || lower === "false") return { ...tok, type: "boolean", value: lower };
      if (lower === "null" || lower === "none") return { ...tok, type: "none", value: lower };
    }
    if (tok.type === njLexer.TOKEN_SYMBOL) {
      // Read ahead only where needed: after `{% verbatim %}` the source must stay unread.
      const afterIs = this.last !== null && this.last.type === njLexer.TOKEN_SYMBOL && (this.last.value === "is" || this.last.value === "not");
      const next = afterIs && (tok.value === "divisible" || tok.value === "same") ? this.lookahead() : null;
      if (next?.type === njLexer.TOKEN_SYMBOL && ((tok.value === "divisible" && next.value === "by") || (tok.value === "same" && next.value === "as"))) {
        this.rawToken(false);
        return { ...tok, value: tok.value === "divisible" ? "divisibleby" : "sameas" };
      }
      // b-and, b-or, b-xor arrive as `b` `-` `and`.
      const dash = tok.value === "b" ? this.rawAhead(0) : null;
      const word = isOp(dash, "-") ? this.rawAhead(1) : null;
      if (word?.type === njLexer.TOKEN_SYMBOL && ["and", "or", "xor"].includes(word.value)) {
        this.ahead.splice(0, 2);
        return { ...tok, type: njLexer.TOKEN_OPERATOR, value: `b-${word.value}` };
      }
    }
    if (isOp(tok, "<=") && isOp(this.rawAhead(0), ">")) {
      this.ahead.shift();
      return { ...tok, value: "<=>" };
    }
    if (isOp(tok, "..") && isOp(this.rawAhead(0), ".")) {
      this.fail("the spread operator (...) is not supported in command templates; use merge()", tok.lineno, tok.colno);
    }
    return tok;
  }

  /** One token with the joins the nunjucks lexer does not make (`=>`, `..`, `?` splitting). */
  private rawToken(withWhitespace?: boolean): NjToken | null {
    const tok = this.numberToken(this.pull(withWhitespace === true));
    if (tok && tok.type === njLexer.TOKEN_SYMBOL && tok.value.includes("?") && !/^\?\??$/.test(tok.value)) {
      // `?` is not a delimiter for the nunjucks lexer: `a?'x':b` arrives as one symbol. Split it at
      // the question marks and lex each piece again.
      const parts: NjToken[] = [];
      let colno = tok.colno;
      for (const piece of tok.value.split(/(\?\??)/).filter((part) => part !== "")) {
        if (piece.startsWith("?")) parts.push({ ...tok, value: piece, colno });
        else parts.push(...relex(piece, tok.lineno, colno));
        colno += piece.length;
      }
      this.ahead.unshift(...parts.slice(1));
      return parts[0] as NjToken;
    }
    if (tok && isOp(tok, "=")) {
      const next = this.pull(true);
      if (isOp(next, ">")) return { ...tok, value: "=>" };
      if (next) this.ahead.unshift(next);
    } else if (tok && tok.type === njLexer.TOKEN_FLOAT && tok.value.endsWith(".")) {
      const next = this.pull(true);
      if (next && isOp(next, ".")) {
        this.ahead.unshift({ ...next, value: ".." });
        return { ...tok, type: njLexer.TOKEN_INT, value: tok.value.slice(0, -1) };
      }
      if (next) this.ahead.unshift(next);
    } else if (tok && isOp(tok, ".")) {
      const next = this.pull(true);
      if (isOp(next, ".")) return { ...tok, value: ".." };
      if (next) this.ahead.unshift(next);
    }
    return tok;
  }

  /**
   * Twig's `_` digit separators (`1_000`, `3.141_592`): the nunjucks lexer reads `1_000` as a name
   * and `.5_1` as `.5` then a name. Joins them into one number token.
   */
  private numberToken(tok: NjToken | null): NjToken | null {
    if (!tok) return tok;
    // Exponents: `1e3` arrives as a name, `2.5e9` as `2.5` then the name `e9`, `1e-3` as `1e` `-` `3`.
    if (tok.type === njLexer.TOKEN_SYMBOL && /^\d+(_\d+)*[eE]\d+(_\d+)*$/.test(tok.value)) {
      return { ...tok, type: njLexer.TOKEN_FLOAT, value: tok.value.replace(/_/g, "") };
    }
    const exponentAt = (i: number): string | null => {
      const e = this.rawAhead(i);
      if (!e || e.type !== njLexer.TOKEN_SYMBOL) return null;
      if (/^[eE]\d+$/.test(e.value)) {
        this.ahead.splice(i, 1);
        return e.value;
      }
      const sign = this.rawAhead(i + 1);
      const digits = this.rawAhead(i + 2);
      if (/^[eE]$/.test(e.value) && (isOp(sign, "-") || isOp(sign, "+")) && digits?.type === njLexer.TOKEN_INT) {
        this.ahead.splice(i, 3);
        return `${e.value}${sign?.value ?? ""}${digits.value}`;
      }
      return null;
    };
    if (tok.type === njLexer.TOKEN_SYMBOL && /^\d+(_\d+)*[eE]$/.test(tok.value)) {
      const sign = this.rawAhead(0);
      const digits = this.rawAhead(1);
      if ((isOp(sign, "-") || isOp(sign, "+")) && digits?.type === njLexer.TOKEN_INT) {
        this.ahead.splice(0, 2);
        return { ...tok, type: njLexer.TOKEN_FLOAT, value: `${tok.value.replace(/_/g, "")}${sign?.value ?? ""}${digits.value}` };
      }
    }
    if (tok.type === njLexer.TOKEN_FLOAT && !tok.value.endsWith(".")) {
      const exponent = exponentAt(0);
      if (exponent !== null) return { ...tok, value: tok.value + exponent };
    }
    if (tok.type === njLexer.TOKEN_SYMBOL && /^\d+(_\d+)+$/.test(tok.value)) {
      const int = { ...tok, type: njLexer.TOKEN_INT, value: tok.value.replace(/_/g, "") };
      const dot = this.rawAhead(0);
      const fraction = this.rawAhead(1);
      if (isOp(dot, ".") && fraction && (fraction.type === njLexer.TOKEN_INT || /^\d+(_\d+)*$/.test(fraction.value))) {
        this.ahead.splice(0, 2);
        return this.numberToken({ ...int, type: njLexer.TOKEN_FLOAT, value: `${int.value}.${fraction.value.replace(/_/g, "")}` });
      }
      return int;
    }
    if (tok.type === njLexer.TOKEN_FLOAT || tok.type === njLexer.TOKEN_INT) {
      const rest = this.rawAhead(0);
      if (rest && rest.type === njLexer.TOKEN_SYMBOL && /^(_\d+)+$/.test(rest.value) && !tok.value.endsWith(".")) {
        this.ahead.shift();
        return { ...tok, value: tok.value + rest.value.replace(/_/g, "") };
      }
    }
    return tok;
  }

  /** Puts tokens back in front of the stream (before anything already peeked). */
  private unread(...tokens: NjToken[]): void {
    if (this.peeked) {
      this.ahead.unshift(this.peeked);
      this.peeked = null;
    }
    this.ahead.unshift(...tokens);
  }

  override parsePrimary(noPostfix?: boolean): NjNode {
    const first = this.peekToken() as TwigToken | null;
    if (first && first.type === njLexer.TOKEN_STRING && first.doubleQuoted && first.value.includes("#{")) {
      this.nextToken();
      const node = this.interpolate(first);
      return noPostfix ? node : this.parsePostfix(node);
    }
    if (first && first.type === njLexer.TOKEN_SYMBOL) {
      this.nextToken();
      const arrow = this.peekToken();
      if (isOp(arrow, "=>")) {
        this.nextToken();
        const param = new njNodes.Symbol(first.lineno, first.colno, first.value);
        return this.arrowBody(first, [param]);
      }
      this.unread(first);
    } else if (first && first.type === njLexer.TOKEN_LEFT_PAREN) {
      const params = this.tryArrowParams();
      if (params) return this.arrowBody(first, params);
    }
    return super.parsePrimary(noPostfix);
  }

  /** `"Hello #{name}!"`: a concatenation of the text and the expressions (Twig string interpolation). */
  private interpolate(tok: TwigToken): NjNode {
    const Literal = nodeClass("Literal");
    const Concat = nodeClass("Concat");
    const text = tok.value;
    let node: NjNode = new Literal(tok.lineno, tok.colno, "");
    let from = 0;
    for (let at = text.indexOf("#{"); at !== -1; at = text.indexOf("#{", from)) {
      if (at > from) node = new Concat(tok.lineno, tok.colno, node, new Literal(tok.lineno, tok.colno, text.slice(from, at)));
      let depth = 1;
      let end = at + 2;
      let quote = "";
      for (; end < text.length && depth > 0; end++) {
        const ch = text[end];
        if (quote) {
          if (ch === quote) quote = "";
        } else if (ch === "'" || ch === '"') quote = ch;
        else if (ch === "{") depth++;
        else if (ch === "}") depth--;
      }
      if (depth !== 0) this.fail('unclosed #{ in a "..." string', tok.lineno, tok.colno);
      const root = new TwigParser(lexTwig(`{{ ${text.slice(at + 2, end - 1)} }}`)).parseAsRoot();
      const output = root.children[0] as NjNodeList | undefined;
      const expr = output?.children[0];
      if (!expr || root.children.length !== 1 || output.children.length !== 1) this.fail("#{...} must hold one expression", tok.lineno, tok.colno);
      node = new Concat(tok.lineno, tok.colno, node, expr);
      from = end;
    }
    if (from < text.length) node = new Concat(tok.lineno, tok.colno, node, new Literal(tok.lineno, tok.colno, text.slice(from)));
    return node;
  }

  /** Reads `(a, b) =>` if that is what follows; otherwise puts every token back and returns null. */
  private tryArrowParams(): NjNode[] | null {
    const read: NjToken[] = [];
    const take = (): NjToken | null => {
      const tok = this.nextToken();
      if (tok) read.push(tok);
      return tok;
    };
    const giveBack = (): null => {
      this.unread(...read);
      return null;
    };
    take();
    const params: NjNode[] = [];
    let tok = take();
    if (tok && tok.type !== njLexer.TOKEN_RIGHT_PAREN) {
      for (;;) {
        if (!tok || tok.type !== njLexer.TOKEN_SYMBOL) return giveBack();
        params.push(new njNodes.Symbol(tok.lineno, tok.colno, tok.value));
        tok = take();
        if (tok && tok.type === njLexer.TOKEN_RIGHT_PAREN) break;
        if (!tok || tok.type !== njLexer.TOKEN_COMMA) return giveBack();
        tok = take();
      }
    }
    if (!isOp(take(), "=>")) return giveBack();
    return params;
  }

  private arrowBody(at: NjToken, params: NjNode[]): NjNode {
    const names = new Set<string>();
    for (const param of params) {
      const name = String((param as unknown as { value: string }).value);
      if (names.has(name)) this.fail(`arrow function parameter "${name}" is declared twice`, at.lineno, at.colno);
      names.add(name);
    }
    const body = this.parseExpression();
    return new ArrowFunctionNode(at.lineno, at.colno, new njNodes.NodeList(at.lineno, at.colno, params), body);
  }

  /**
   * Twig's lowest-precedence operators on top of nunjucks' expressions: `a ?? b`, `a ?: b` and
   * `cond ? a : b` (right-associative). Write them with spaces or without; both lex.
   */
  override parseExpression(): NjNode {
    const node = super.parseExpression();
    const tok = this.peekToken();
    if (!tok || tok.type !== njLexer.TOKEN_SYMBOL) return node;
    if (tok.value === "??") {
      this.nextToken();
      return new CoalesceNode(tok.lineno, tok.colno, node, this.parseExpression());
    }
    if (tok.value === "?") {
      this.nextToken();
      const next = this.peekToken();
      if (next && next.type === njLexer.TOKEN_COLON) {
        this.nextToken();
        return new ElvisNode(tok.lineno, tok.colno, node, this.parseExpression());
      }
      const body = this.parseExpression();
      const colon = this.peekToken();
      if (!colon || colon.type !== njLexer.TOKEN_COLON) {
        // `cond ? a` (Twig): "" when the condition is false.
        return new njNodes.InlineIf(tok.lineno, tok.colno, node, body, new (nodeClass("Literal"))(tok.lineno, tok.colno, ""));
      }
      this.nextToken();
      return new njNodes.InlineIf(tok.lineno, tok.colno, node, body, this.parseExpression());
    }
    return node;
  }

  /**
   * Postfix lookups, with Twig's slice syntax: `x[start:length]`, `x[:length]`, `x[start:]` become
   * the `slice` filter (Twig's second number is a length, not an end).
   */
  override parsePostfix(node: NjNode): NjNode {
    const signature = (): NjNode => (this as unknown as { parseSignature(): NjNode }).parseSignature();
    for (let tok = this.peekToken(); tok; tok = this.peekToken()) {
      if (tok.type === njLexer.TOKEN_LEFT_PAREN) {
        node = new njNodes.FunCall(tok.lineno, tok.colno, node, signature());
        continue;
      }
      if (isOp(tok, ".")) {
        this.nextToken();
        const name = this.peekToken();
        const Literal = nodeClass("Literal");
        if (name && name.type === njLexer.TOKEN_LEFT_PAREN) {
          // `hash.(expression)`: an attribute named by an expression (Twig).
          this.nextToken();
          const key = this.parseExpression();
          const close = this.nextToken();
          if (!close || close.type !== njLexer.TOKEN_RIGHT_PAREN) this.fail('expected ) after .(attribute', tok.lineno, tok.colno);
          node = new njNodes.LookupVal(tok.lineno, tok.colno, node, key);
          continue;
        }
        this.nextToken();
        if (name && (name.type === njLexer.TOKEN_INT || name.type === njLexer.TOKEN_FLOAT)) {
          // `list.0`, and `list.0.1` (lexed as the number 0.1), `list.0.name` (lexed as `0.` `name`).
          const [index, next] = name.value.split(".") as [string, string | undefined];
          node = new njNodes.LookupVal(tok.lineno, tok.colno, node, new Literal(name.lineno, name.colno, Number(index)));
          if (next !== undefined && next !== "") node = new njNodes.LookupVal(tok.lineno, tok.colno, node, new Literal(name.lineno, name.colno, Number(next)));
          else if (next === "") this.unread({ ...name, type: njLexer.TOKEN_OPERATOR, value: "." });
          continue;
        }
        if (!name || (name.type !== njLexer.TOKEN_SYMBOL && name.type !== "boolean" && name.type !== "none")) {
          this.fail(`expected a name after ".", got ${name?.value ?? "the end"}`, tok.lineno, tok.colno);
        }
        node = new njNodes.LookupVal(tok.lineno, tok.colno, node, new Literal(name.lineno, name.colno, name.value));
        continue;
      }
      if (tok.type !== "left-bracket") return node;
      this.nextToken();
      const colonFirst = this.peekToken();
      const start = colonFirst && colonFirst.type === njLexer.TOKEN_COLON ? null : this.parseExpression();
      const sep = this.peekToken();
      if (sep && sep.type === njLexer.TOKEN_COLON) {
        this.nextToken();
        const end = this.peekToken();
        const length = end && end.type === njLexer.TOKEN_RIGHT_BRACKET ? null : this.parseExpression();
        const close = this.nextToken();
        if (!close || close.type !== njLexer.TOKEN_RIGHT_BRACKET) this.fail("expected ] after a slice", tok.lineno, tok.colno);
        const Literal = nodeClass("Literal");
        const args = [node, start ?? new Literal(tok.lineno, tok.colno, 0)];
        if (length) args.push(length);
        node = new njNodes.Filter(tok.lineno, tok.colno, new njNodes.Symbol(tok.lineno, tok.colno, "slice"), new njNodes.NodeList(tok.lineno, tok.colno, args));
        continue;
      }
      const close = this.nextToken();
      if (!close || close.type !== njLexer.TOKEN_RIGHT_BRACKET || !start) this.fail("expected ] after an index", tok.lineno, tok.colno);
      node = new njNodes.LookupVal(tok.lineno, tok.colno, node, start);
    }
    return node;
  }

  /**
   * `{% verbatim %}...{% endverbatim %}` (and `raw`), with whitespace control on both tags: `-`
   * trims all whitespace on its side, `~` spaces and tabs (nunjucks knows neither inside these tags).
   */
  parseRaw(tagName = "raw"): NjNode {
    const tokens = this.tokens as NjTokenizer & {
      _extractRegex(re: RegExp): RegExpMatchArray | null;
      backN(n: number): void;
      forward(): void;
      current(): string;
    };
    const end = `end${tagName}`;
    const block = new RegExp(`([\\s\\S]*?)\\{%([-~]?)\\s*(${tagName}|${end})\\s*([-~]?)%\\}`);
    const begun = this.advanceAfterBlockEnd();
    if (this.ahead.length > 0 || this.peeked) this.fail(`{% ${tagName} %} must end its tag with %}`, begun.lineno, begun.colno);
    let level = 1;
    // The newline after `{% verbatim %}` is text (Twig), though the lexer drops it after other tags.
    let text = begun.value === "%}" && (this.tokens as unknown as { str: string; index: number }).str.charAt((this.tokens as unknown as { index: number }).index - 1) === "\n" ? "\n" : "";
    let closing: RegExpMatchArray | null = null;
    for (let match = tokens._extractRegex(block); match; match = tokens._extractRegex(block)) {
      level += match[3] === tagName ? 1 : -1;
      if (level === 0) {
        text += match[1] ?? "";
        closing = match;
        break;
      }
      text += match[0];
    }
    if (!closing) this.fail(`expected {% ${end} %}`, begun.lineno, begun.colno);
    if (begun.value.startsWith("-")) text = text.replace(/^\s+/, "");
    if (closing[2] === "-") text = text.replace(/\s+$/, "");
    else if (closing[2] === "~") text = text.replace(/[ \t\0\v]+$/, "");
    // The opening tag's `-%}` trimmed the text above, not what follows the closing tag.
    (this as unknown as { dropLeadingWhitespace: boolean }).dropLeadingWhitespace = closing[4] === "-";
    if (closing[4] === "~") while (/^[ \t\0\v]$/.test(tokens.current())) tokens.forward();
    const Output = nodeClass("Output");
    return new Output(begun.lineno, begun.colno, [new (nodeClass("TemplateData"))(begun.lineno, begun.colno, text)]);
  }

  /** A filter's name: one word (`list|first.name` is the `name` of the first item, not a filter "first.name"). */
  parseFilterName(): NjNode {
    const tok = this.nextToken();
    if (!tok || tok.type !== njLexer.TOKEN_SYMBOL) this.fail(`expected a filter name, got ${tok?.value ?? "the end"}`, tok?.lineno, tok?.colno);
    return new njNodes.Symbol(tok.lineno, tok.colno, tok.value);
  }

  /** A filter's arguments: `(a, name=b)`, or none. */
  parseFilterArgs(): NjNode[] {
    if (this.peekToken()?.type !== njLexer.TOKEN_LEFT_PAREN) return [];
    return ((this as unknown as { parseSignature(): NjNodeList }).parseSignature()).children;
  }

  /** Filters are postfix operators in Twig: `list|batch(2)[1]` and `list|first.name` look into the filter's result. */
  parseFilter(node: NjNode): NjNode {
    while (this.skip("pipe")) {
      const name = this.parseFilterName();
      node = new njNodes.Filter(name.lineno, name.colno, name, new njNodes.NodeList(name.lineno, name.colno, [node, ...this.parseFilterArgs()]));
      const next = this.peekToken();
      if (next && (next.type === "left-bracket" || isOp(next, "."))) node = this.parsePostfix(node);
    }
    return node;
  }

  /** Unary `-`/`+` bind looser than `**` in Twig: `-1 ** 0` is `-(1 ** 0)`; `**` is right-associative. */
  parsePow(): NjNode {
    const tok = this.peekToken();
    if (tok && (isOp(tok, "-") || isOp(tok, "+"))) {
      this.nextToken();
      const Unary = nodeClass(tok.value === "-" ? "Neg" : "Pos");
      return new Unary(tok.lineno, tok.colno, this.parsePow());
    }
    const base = njParser.Parser.prototype as unknown as { parseUnary(this: TwigParser): NjNode };
    let node = base.parseUnary.call(this);
    const pow = this.peekToken();
    if (pow && isOp(pow, "**")) {
      this.nextToken();
      node = new (nodeClass("Pow"))(pow.lineno, pow.colno, node, this.parsePow());
    }
    return node;
  }

  /**
   * `is` tests; `is same as 1` and `is divisible by 2` take their argument without parentheses too
   * (Twig reads one primary expression).
   */
  parseIs(): NjNode {
    let node = this.parseCompare();
    const is = this.peekToken();
    if (!is || is.type !== njLexer.TOKEN_SYMBOL || is.value !== "is") return node;
    this.nextToken();
    const notTok = this.peekToken();
    const not = notTok !== null && notTok.type === njLexer.TOKEN_SYMBOL && notTok.value === "not";
    if (not) this.nextToken();
    let test = this.parseCompare();
    const name = test instanceof njNodes.Symbol ? String(nodeField(test, "value")) : "";
    if (name === "sameas" || name === "divisibleby") {
      const arg = this.parsePrimary();
      test = new njNodes.FunCall(test.lineno, test.colno, test, new njNodes.NodeList(arg.lineno, arg.colno, [arg]));
    }
    node = new njNodes.Is(node.lineno, node.colno, node, test);
    return not ? new njNodes.Not(node.lineno, node.colno, node) : node;
  }

  /** Serial number of the hidden variables of `{% set a, b = x, y %}`. */
  private setCount = 0;

  /**
   * `{% set a, b = x, y %}` assigns pairwise, every value computed before any is assigned (so
   * `set a, b = b, a` swaps), as in Twig; the counts must match. One target keeps nunjucks' `set`.
   */
  parseSet(): NjNode {
    const tag = this.nextToken() as NjToken;
    const Set = nodeClass("Set");
    const targets: NjNode[] = [];
    do {
      const target = this.parsePrimary();
      const { lineno, colno } = target;
      const value = nodeField(target, "value");
      if (!(target instanceof njNodes.Symbol)) {
        this.fail(`you cannot assign a value to ${value === undefined ? "this expression" : `"${String(value)}"`}; set needs a variable name`, lineno, colno);
      }
      targets.push(target);
    } while (this.skip(njLexer.TOKEN_COMMA));
    if (!this.skipValue(njLexer.TOKEN_OPERATOR, "=")) {
      if (targets.length > 1) this.fail("set with several variables needs = and as many values (set a, b = 1, 2)", tag.lineno, tag.colno);
      if (!this.skip("block-end")) this.fail("expected = or the end of the set tag", tag.lineno, tag.colno);
      const node = new Set(tag.lineno, tag.colno, targets);
      setNodeField(node, "body", new (nodeClass("Capture"))(tag.lineno, tag.colno, this.parseUntilBlocks("endset")));
      setNodeField(node, "value", null);
      this.advanceAfterBlockEnd();
      return node;
    }
    const values: NjNode[] = [this.parseExpression()];
    while (this.skip(njLexer.TOKEN_COMMA)) values.push(this.parseExpression());
    this.advanceAfterBlockEnd(tag.value);
    if (targets.length === 1 && values.length === 1) {
      const node = new Set(tag.lineno, tag.colno, targets);
      setNodeField(node, "value", values[0]);
      return node;
    }
    if (values.length !== targets.length) {
      this.fail(`set assigns ${targets.length} variables but ${values.length} values; give as many values as variables`, tag.lineno, tag.colno);
    }
    const Literal = nodeClass("Literal");
    const hidden = new njNodes.Symbol(tag.lineno, tag.colno, `__twig_set${this.setCount++}`);
    const all = new Set(tag.lineno, tag.colno, [hidden]);
    setNodeField(all, "value", new (nodeClass("Array"))(tag.lineno, tag.colno, values));
    const sets = targets.map((target, i) => {
      const set = new Set(target.lineno, target.colno, [target]);
      setNodeField(set, "value", new njNodes.LookupVal(target.lineno, target.colno, hidden, new Literal(target.lineno, target.colno, i)));
      return set;
    });
    return new njNodes.NodeList(tag.lineno, tag.colno, [all, ...sets]);
  }

  /** `xor` sits between `or` and `and` (Twig precedences 10, 12, 15). */
  parseAnd(): NjNode {
    const base = njParser.Parser.prototype as unknown as { parseAnd(this: TwigParser): NjNode };
    let node = base.parseAnd.call(this);
    for (let tok = this.peekToken(); tok && tok.type === njLexer.TOKEN_SYMBOL && tok.value === "xor"; tok = this.peekToken()) {
      this.nextToken();
      node = new XorNode(tok.lineno, tok.colno, node, base.parseAnd.call(this));
    }
    return node;
  }

  /** `b-or`, `b-xor`, `b-and` sit between `and` and `not`/comparisons (Twig precedences 16, 17, 18). */
  parseNot(): NjNode {
    return this.parseBitwise(0);
  }

  private parseBitwise(level: number): NjNode {
    const ops = ["b-or", "b-xor", "b-and"] as const;
    const symbols = { "b-or": "|", "b-xor": "^", "b-and": "&" } as const;
    const base = njParser.Parser.prototype as unknown as { parseNot(this: TwigParser): NjNode };
    const operand = (): NjNode => (level === ops.length - 1 ? base.parseNot.call(this) : this.parseBitwise(level + 1));
    const op = ops[level] as (typeof ops)[number];
    let node = operand();
    for (let tok = this.peekToken(); tok && isOp(tok, op); tok = this.peekToken()) {
      this.nextToken();
      node = new BitwiseNode(tok.lineno, tok.colno, symbols[op], node, operand());
    }
    return node;
  }

  /** Twig's `starts with`, `ends with` and `matches`, at the precedence of comparisons. */
  parseCompare(): NjNode {
    const base = njParser.Parser.prototype as unknown as { parseCompare(this: TwigParser): NjNode };
    let node = base.parseCompare.call(this);
    for (;;) {
      const tok = this.peekToken();
      if (!tok) return node;
      if (isOp(tok, "<=>")) {
        this.nextToken();
        node = new SpaceshipNode(tok.lineno, tok.colno, node, base.parseCompare.call(this));
        continue;
      }
      if (tok.type !== njLexer.TOKEN_SYMBOL) return node;
      if (tok.value === "has") {
        this.nextToken();
        const which = this.nextToken();
        if (!which || which.type !== njLexer.TOKEN_SYMBOL || (which.value !== "some" && which.value !== "every")) {
          this.fail('expected "has some" or "has every"', tok.lineno, tok.colno);
        }
        node = new HasNode(tok.lineno, tok.colno, which.value, node, base.parseCompare.call(this));
        continue;
      }
      let op: string;
      if (tok.value === "matches") {
        this.nextToken();
        op = "matches";
      } else if (tok.value === "starts" || tok.value === "ends") {
        this.nextToken();
        const word = this.nextToken();
        if (!word || word.type !== njLexer.TOKEN_SYMBOL || word.value !== "with") {
          this.fail(`expected "${tok.value} with"`, tok.lineno, tok.colno);
        }
        op = tok.value;
      } else {
        return node;
      }
      node = new StringTestNode(tok.lineno, tok.colno, op, node, base.parseCompare.call(this));
    }
  }

  /** `a..b` binds looser than `~` and arithmetic, tighter than comparisons (as in Twig). */
  parseConcat(): NjNode {
    const base = njParser.Parser.prototype as unknown as { parseConcat(this: TwigParser): NjNode };
    const left = base.parseConcat.call(this);
    const tok = this.peekToken();
    if (tok && isOp(tok, "..")) {
      this.nextToken();
      const right = base.parseConcat.call(this);
      return new TwigRangeNode(tok.lineno, tok.colno, left, right);
    }
    return left;
  }
}

/** The expression tokens of `piece` (lexed inside `{{ }}`), placed at `lineno`/`colno`. */
function relex(piece: string, lineno: number, colno: number): NjToken[] {
  const tokenizer = njLexer.lex(`{{${piece}}}`, {});
  const out: NjToken[] = [];
  for (let tok = tokenizer.nextToken(); tok; tok = tokenizer.nextToken()) {
    if (tok.type === njLexer.TOKEN_VARIABLE_START || tok.type === njLexer.TOKEN_VARIABLE_END) continue;
    out.push({ ...tok, lineno, colno: colno + tok.colno - 2 });
  }
  return out;
}

/** Parses Twig-syntax template source into a nunjucks AST (throws the nunjucks TemplateError). */
export function parseTwig(source: string): NjNodeList {
  const parser = new TwigParser(lexTwig(source));
  const internal = (p: unknown) =>
    p as { parseFilterName(): NjNode; parseFilterArgs(node: NjNode): NjNode[]; parseUntilBlocks(...names: string[]): NjNode };
  parser.extensions = [
    {
      tags: ["apply"],
      parse(p) {
        const tag = p.nextToken() as NjToken;
        const filters: Array<{ name: NjNode; args: NjNode[] }> = [];
        for (;;) {
          const name = internal(p).parseFilterName();
          filters.push({ name, args: internal(p).parseFilterArgs(name) });
          if (p.peekToken()?.type !== "pipe") break;
          p.nextToken();
        }
        p.advanceAfterBlockEnd(tag.value);
        const body = internal(p).parseUntilBlocks("endapply");
        p.advanceAfterBlockEnd();
        let node: NjNode = new (nodeClass("Capture"))(tag.lineno, tag.colno, body);
        for (const { name, args } of filters) {
          node = new njNodes.Filter(tag.lineno, tag.colno, name, new njNodes.NodeList(tag.lineno, tag.colno, [node, ...args]));
        }
        return new (nodeClass("Output"))(tag.lineno, tag.colno, [node]);
      },
    },
    {
      tags: ["with"],
      parse(p) {
        const tag = p.nextToken() as NjToken;
        let vars: NjNode | null = null;
        const isOnly = (t: NjToken | null): boolean => t !== null && t.type === njLexer.TOKEN_SYMBOL && t.value === "only";
        const next = p.peekToken();
        if (next && next.type !== "block-end" && !isOnly(next)) vars = p.parseExpression();
        const only = isOnly(p.peekToken());
        if (only) p.nextToken();
        p.advanceAfterBlockEnd(tag.value);
        const body = internal(p).parseUntilBlocks("endwith");
        p.advanceAfterBlockEnd();
        return new WithNode(tag.lineno, tag.colno, vars, only, body);
      },
    },
    {
      tags: ["do"],
      parse(p) {
        const tag = p.nextToken() as NjToken;
        const expr = p.parseExpression();
        p.advanceAfterBlockEnd(tag.value);
        return new DoNode(tag.lineno, tag.colno, expr);
      },
    },
  ];
  return parser.parseAsRoot();
}
