import type { NjNode, NjNodeList, NjToken, NjTokenizer } from "./nunjucks-internals.js";
import { njLexer, njNodes, njParser } from "./nunjucks-internals.js";

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

  override nextToken(withWhitespace?: boolean): NjToken | null {
    if (this.peeked) {
      const peeked = this.peeked;
      this.peeked = null;
      if (withWhitespace || peeked.type !== njLexer.TOKEN_WHITESPACE) return peeked;
    }
    const tok = this.pull(withWhitespace === true);
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

  /** Puts tokens back in front of the stream (before anything already peeked). */
  private unread(...tokens: NjToken[]): void {
    if (this.peeked) {
      this.ahead.unshift(this.peeked);
      this.peeked = null;
    }
    this.ahead.unshift(...tokens);
  }

  override parsePrimary(noPostfix?: boolean): NjNode {
    const first = this.peekToken();
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
      const colon = this.nextToken();
      if (!colon || colon.type !== njLexer.TOKEN_COLON) {
        this.fail("expected : in the ?: operator", colon?.lineno ?? tok.lineno, colon?.colno ?? tok.colno);
      }
      return new njNodes.InlineIf(tok.lineno, tok.colno, node, body, this.parseExpression());
    }
    return node;
  }

  /** Twig's `starts with`, `ends with` and `matches`, at the precedence of comparisons. */
  parseCompare(): NjNode {
    const base = njParser.Parser.prototype as unknown as { parseCompare(this: TwigParser): NjNode };
    let node = base.parseCompare.call(this);
    for (;;) {
      const tok = this.peekToken();
      if (!tok || tok.type !== njLexer.TOKEN_SYMBOL) return node;
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
  const parser = new TwigParser(njLexer.lex(source, {}));
  parser.extensions = [
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
