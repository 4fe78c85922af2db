import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { definedKeys } from "../objects.js";
import type { NjCompileFrame, NjNode, NjNodeList, NjTemplateError } from "./nunjucks-internals.js";
import { childFields, isNode, njCompiler, njNodes, njTransformer, nodeField, setNodeField } from "./nunjucks-internals.js";
import { RE2JS } from "re2js";
import { TemplateSyntaxError } from "./template-errors.js";
import { isUtc } from "./isolate/date.js";
import { ESCAPE_STRATEGIES } from "./isolate/escape.js";
import { readTwigRegex } from "./isolate/regex.js";
import type { TwigRegexSource } from "./isolate/regex.js";
import { TEMPLATE_FUNCTION_NAMES, TWIG_FILTERS, TWIG_TESTS } from "./function-names.js";
import { applyTwigRewrites, ForRanNode, LoopValuesNode, PairsNode, PrintNode, UndefinedNode } from "./twig-rewrites.js";
import type { AccessNeed } from "./variable-access.js";
import { variableAccess } from "./variable-access.js";
import type { TemplateFunctionName } from "./function-names.js";
import {
  ArrowFunctionNode,
  BitwiseNode,
  CoalesceNode,
  DoNode,
  ElvisNode,
  HasNode,
  SpaceshipNode,
  StringTestNode,
  TruthyNode,
  TwigRangeNode,
  WithNode,
  XorNode,
  nodeClass,
  parseTwig,
} from "./twig-parser.js";

/** Templates longer than this are refused at compile time (a chat command is short). */
export const MAX_TEMPLATE_SOURCE_LENGTH = 10_000;

const require = createRequire(import.meta.url);
const KNOWN_FILTERS: ReadonlySet<string> = new Set([
  ...Object.keys(require("nunjucks/src/filters") as Record<string, unknown>),
  ...TWIG_FILTERS,
]);
const KNOWN_TESTS: ReadonlySet<string> = new Set([
  ...Object.keys(require("nunjucks/src/tests") as Record<string, unknown>),
  ...TWIG_TESTS,
]);
const FUNCTION_NAMES: ReadonlySet<string> = new Set(TEMPLATE_FUNCTION_NAMES);

/** What {@link compileTwig} produces: JavaScript source of a nunjucks `root` function, never run on the host. */
export interface CompiledTwig {
  /** `function root(env, context, frame, runtime, cb) {...} return {root: root};` */
  readonly code: string;
  /** Host functions the template names (a template that names none never calls one). */
  readonly functions: readonly TemplateFunctionName[];
  /** What of each template variable the template can read (absent: never read). */
  readonly variables: ReadonlyMap<string, AccessNeed>;
  /**
   * The template-function call every render of the template makes first, before anything else can
   * happen (see {@link leadingCallOf}); absent when there is none.
   */
  readonly leadingCall?: LeadingCall;
}

/** A template-function call with literal arguments that a template always makes first. */
export interface LeadingCall {
  readonly name: TemplateFunctionName;
  /** The JSON of the arguments, exactly as the isolate computes it when the template makes the call. */
  readonly argsJson: string;
}

const Compiler = njCompiler.Compiler as unknown as new (name: string, throwOnUndefined: boolean) => {
  compile(node: NjNode, frame?: NjCompileFrame): void;
  getCode(): string;
  _emit(code: string): void;
  _tmpid(): string;
  _compileAggregate(node: NjNode, frame: NjCompileFrame, open: string, close: string): void;
  _getNodeName(node: NjNode): string;
};

const baseCompileExpression = (
  njCompiler.Compiler.prototype as unknown as {
    _compileExpression(this: unknown, node: NjNode, frame: NjCompileFrame): void;
  }
)._compileExpression;

const baseCompileFor = (
  njCompiler.Compiler.prototype as unknown as {
    compileFor(this: unknown, node: NjNode, frame: NjCompileFrame): void;
  }
).compileFor;

const baseCompileFunCall = (
  njCompiler.Compiler.prototype as unknown as {
    compileFunCall(this: unknown, node: NjNode, frame: NjCompileFrame): void;
  }
).compileFunCall;

/** The nunjucks compiler taught the Twig nodes (arrow functions, `..` ranges, Twig truthiness). */
class TwigCompiler extends Compiler {
  private static readonly own: readonly unknown[] = [
    ArrowFunctionNode, TwigRangeNode, TruthyNode, CoalesceNode, ElvisNode, StringTestNode, DoNode,
    XorNode, BitwiseNode, SpaceshipNode, HasNode, WithNode, PrintNode, PairsNode, LoopValuesNode, UndefinedNode,
  ];

  /** Calls `runtime.<fn>(a, b, ...)` on compiled fields of `node` (string fields are emitted as JSON). */
  private runtimeCall(fn: string, node: NjNode, frame: NjCompileFrame, fields: readonly string[]): void {
    this._emit(`runtime.${fn}(`);
    fields.forEach((field, i) => {
      if (i > 0) this._emit(", ");
      const value = nodeField(node, field);
      if (isNode(value)) this.compile(value, frame);
      else this._emit(JSON.stringify(value));
    });
    this._emit(")");
  }

  compileTwigPrint(node: NjNode, frame: NjCompileFrame): void {
    this.runtimeCall("twigPrint", node, frame, ["target"]);
  }

  compileTwigPairs(node: NjNode, frame: NjCompileFrame): void {
    this.runtimeCall("twigPairs", node, frame, ["target"]);
  }

  /** Variables of the `for ... else` being compiled, innermost last (for {@link ForRanNode}). */
  private readonly forRan: string[] = [];

  /**
   * `for ... else`: the `else` runs after the loop, in the enclosing scope, so in a nested loop it
   * sees the outer loop's variables (nunjucks compiles it inside the loop's scope, where the loop
   * variable is unset).
   */
  compileFor(node: NjNode, frame: NjCompileFrame): void {
    const otherwise = nodeField(node, "else_");
    if (!isNode(otherwise)) {
      baseCompileFor.call(this, node, frame);
      return;
    }
    const ran = this._tmpid();
    this._emit(`var ${ran} = false;\n`);
    const body = nodeField(node, "body") as NjNodeList;
    body.children.unshift(new ForRanNode(node.lineno, node.colno));
    setNodeField(node, "else_", null);
    this.forRan.push(ran);
    try {
      baseCompileFor.call(this, node, frame);
    } finally {
      this.forRan.pop();
      body.children.shift();
      setNodeField(node, "else_", otherwise);
    }
    this._emit(`if (!${ran}) {\n`);
    this.compile(otherwise, frame);
    this._emit("}\n");
  }

  compileTwigForRan(): void {
    this._emit(`${this.forRan.at(-1) as string} = true;\n`);
  }

  compileTwigLoopValues(node: NjNode, frame: NjCompileFrame): void {
    this.runtimeCall("twigLoopValues", node, frame, ["target"]);
  }

  compileTwigUndefined(): void {
    this._emit("undefined");
  }

  /** `open` left `middle` right `close`: a binary node between fixed code. */
  private binary(node: NjNode, frame: NjCompileFrame, open: string, middle: string, close: string): void {
    this._emit(open);
    this.compile(nodeField(node, "left") as NjNode, frame);
    this._emit(middle);
    this.compile(nodeField(node, "right") as NjNode, frame);
    this._emit(close);
  }

  compileTwigXor(node: NjNode, frame: NjCompileFrame): void {
    this.binary(node, frame, "(runtime.twigTruthy(", ") !== runtime.twigTruthy(", "))");
  }

  compileTwigBitwise(node: NjNode, frame: NjCompileFrame): void {
    const op = String(nodeField(node, "op"));
    if (op !== "&" && op !== "|" && op !== "^") fail(`unknown bitwise operator ${op}`, node);
    this.binary(node, frame, "(runtime.twigInt(", `) ${op} runtime.twigInt(`, "))");
  }

  compileTwigSpaceship(node: NjNode, frame: NjCompileFrame): void {
    this.runtimeCall("twigSpaceship", node, frame, ["left", "right"]);
  }

  compileTwigHas(node: NjNode, frame: NjCompileFrame): void {
    this.runtimeCall("twigHas", node, frame, ["op", "left", "right"]);
  }

  /** `{% with vars %}`: a new scope (frame) holding the hash's keys as variables. */
  compileTwigWith(node: NjNode, frame: NjCompileFrame): void {
    if (nodeField(node, "only") === true) {
      fail("{% with ... only %} is not supported in command templates (a template cannot hide its variables); drop only", node);
    }
    this._emit("frame = frame.push();\n");
    const vars = nodeField(node, "vars");
    if (isNode(vars)) {
      this._emit("runtime.twigWith(frame, ");
      this.compile(vars, frame);
      this._emit(");\n");
    }
    this.compile(nodeField(node, "body") as NjNode, frame.push());
    this._emit("frame = frame.pop();\n");
  }

  /** `a in b` with Twig's semantics: loose comparison in lists, substring in strings and numbers. */
  compileIn(node: NjNode, frame: NjCompileFrame): void {
    this.runtimeCall("twigIn", node, frame, ["left", "right"]);
  }

  /**
   * Hash keys: names, strings, numbers (Twig `{2: 'two'}`) and `(expression)`. Always computed
   * (`{["k"]: v}`), so a `__proto__` key is an own key and never sets the object's prototype.
   */
  compilePair(node: NjNode, frame: NjCompileFrame): void {
    const key = nodeField(node, "key") as NjNode;
    const value = nodeField(key, "value");
    if (isA(key, njNodes.Symbol) || (isA(key, nodeClass("Literal")) && (typeof value === "string" || typeof value === "number"))) {
      this._emit(`[${JSON.stringify(String(value))}]`);
    } else {
      this._emit("[runtime.twigString(");
      this.compile(key, frame);
      this._emit(")]");
    }
    this._emit(": ");
    this._compileExpression(nodeField(node, "value") as NjNode, frame);
  }

  _compileExpression(node: NjNode, frame: NjCompileFrame): void {
    if (TwigCompiler.own.some((type) => isA(node, type))) this.compile(node, frame);
    else baseCompileExpression.call(this, node, frame);
  }

  /**
   * `x.method(args)` in the operand of `default` or `defined`: null when there is no such method,
   * as Twig gives, so `object.missing()|default('x')` and `object.missing() is defined` work.
   * Elsewhere calling nothing stays an error naming the call.
   */
  compileFunCall(node: NjNode, frame: NjCompileFrame): void {
    const callee = nodeField(node, "name") as NjNode;
    if (!lenientCalls.has(node)) {
      baseCompileFunCall.call(this, node, frame);
      return;
    }
    const fn = this._tmpid();
    this._emit(`(function(${fn}) { return ${fn} === undefined || ${fn} === null ? undefined : runtime.callWrap(${fn}, ${JSON.stringify(this._getNodeName(callee))}, context, `);
    this._compileAggregate(nodeField(node, "args") as NjNode, frame, "[", "]");
    this._emit("); })(");
    this._compileExpression(callee, frame);
    this._emit(")");
  }

  compileArrowFunction(node: NjNode, frame: NjCompileFrame): void {
    const params = (nodeField(node, "params") as NjNodeList).children;
    const inner = frame.push();
    const ids = params.map((param) => {
      const id = this._tmpid();
      inner.set(String(nodeField(param, "value")), id);
      return id;
    });
    this._emit(`(function(${ids.join(", ")}) { return (`);
    this.compile(nodeField(node, "body") as NjNode, inner);
    this._emit("); })");
  }

  compileTwigRange(node: NjNode, frame: NjCompileFrame): void {
    this.binary(node, frame, "runtime.twigRange(", ", ", ")");
  }

  /** `a ~ b` with Twig's string conversion: null and undefined concatenate as "". */
  compileConcat(node: NjNode, frame: NjCompileFrame): void {
    this.binary(node, frame, "(runtime.twigString(", ") + runtime.twigString(", "))");
  }

  /** `a ?? b`; `b` is evaluated only when needed. */
  compileTwigCoalesce(node: NjNode, frame: NjCompileFrame): void {
    const value = this._tmpid();
    this._emit(`(function(${value}) { return ${value} === undefined || ${value} === null ? (`);
    this.compile(nodeField(node, "right") as NjNode, frame);
    this._emit(`) : ${value}; })(`);
    this.compile(nodeField(node, "left") as NjNode, frame);
    this._emit(")");
  }

  /** `a ?: b`; `b` is evaluated only when needed. */
  compileTwigElvis(node: NjNode, frame: NjCompileFrame): void {
    const value = this._tmpid();
    this._emit(`(function(${value}) { return runtime.twigTruthy(${value}) ? ${value} : (`);
    this.compile(nodeField(node, "right") as NjNode, frame);
    this._emit("); })(");
    this.compile(nodeField(node, "left") as NjNode, frame);
    this._emit(")");
  }

  compileTwigStringTest(node: NjNode, frame: NjCompileFrame): void {
    this._emit(`runtime.twigStringTest(${JSON.stringify(String(nodeField(node, "op")))}, `);
    this.compile(nodeField(node, "left") as NjNode, frame);
    this._emit(", ");
    this.compile(nodeField(node, "right") as NjNode, frame);
    this._emit(")");
  }

  /** `{% do expr %}`: a statement; the value is dropped. */
  compileTwigDo(node: NjNode, frame: NjCompileFrame): void {
    this._emit("(");
    this.compile(nodeField(node, "expr") as NjNode, frame);
    this._emit(");\n");
  }

  compileTruthy(node: NjNode, frame: NjCompileFrame): void {
    this._emit("runtime.twigTruthy(");
    this.compile(nodeField(node, "target") as NjNode, frame);
    this._emit(")");
  }
}

const FORBIDDEN: ReadonlyArray<readonly [unknown, string]> = [
  [njNodes.Include, "{% include %}"],
  [njNodes.Import, "{% import %}"],
  [njNodes.FromImport, "{% from ... import %}"],
  [njNodes.Extends, "{% extends %}"],
  [njNodes.Block, "{% block %}"],
  [njNodes.Super, "super()"],
  [njNodes.CallExtension, "extension tags"],
];

/** instanceof without TypeScript narrowing (every node class has the same instance type). */
function isA(value: unknown, type: unknown): boolean {
  return value instanceof (type as typeof Object);
}

function fail(message: string, node: NjNode): never {
  throw new TemplateSyntaxError(message, node.lineno + 1, node.colno + 1);
}

/** Walks every node under `node` (fields, node lists), depth first. */
function walk(node: NjNode, visit: (node: NjNode) => void): void {
  visit(node);
  for (const field of childFields(node)) {
    const value = nodeField(node, field);
    if (Array.isArray(value)) {
      for (const child of value) if (isNode(child)) walk(child, visit);
    } else if (isNode(value)) {
      walk(value, visit);
    }
  }
}

/** Functions every template may call besides the host's template functions. */
const BUILTIN_FUNCTIONS: ReadonlySet<string> = new Set(["range", "cycle", "random", "max", "min", "cycler", "joiner"]);
/** Functions that need at least one argument (Twig refuses `max()` when it compiles the template). */
const NEEDS_ARGUMENTS: ReadonlySet<string> = new Set(["max", "min", "cycle"]);

/**
 * Names a template binds itself, which it may call: macros, `set` and `for` variables, arrow and
 * macro parameters, `caller` in macros.
 */
function boundNames(root: NjNode): Set<string> {
  const names = new Set<string>(["caller"]);
  const add = (node: unknown): void => {
    if (isA(node, njNodes.Symbol)) names.add(String(nodeField(node as NjNode, "value")));
    else if (isA(node, njNodes.NodeList) || isA(node, nodeClass("Array"))) (node as NjNodeList).children.forEach(add);
    else if (isA(node, nodeClass("Pair"))) add(nodeField(node as NjNode, "key"));
    else if (isA(node, nodeClass("KeywordArgs"))) (node as NjNodeList).children.forEach(add);
  };
  walk(root, (node) => {
    if (isA(node, nodeClass("Macro"))) {
      add(nodeField(node, "name"));
      add(nodeField(node, "args"));
    } else if (isA(node, nodeClass("Set"))) (nodeField(node, "targets") as NjNode[]).forEach(add);
    else if (isA(node, nodeClass("For"))) add(nodeField(node, "name"));
    else if (isA(node, ArrowFunctionNode)) add(nodeField(node, "params"));
  });
  return names;
}

/**
 * A literal pattern of `matches` is checked when the template is saved: a `/pattern/flags` string,
 * valid JavaScript, and accepted by RE2 (the project's linear-time engine, see command-regex.ts),
 * which refuses what cannot run in linear time (backreferences, lookarounds). The sandbox runs it
 * with V8's linear-time engine; a pattern computed at render time is checked there.
 */
function checkMatches(node: NjNode): void {
  if (nodeField(node, "op") !== "matches") return;
  const right = nodeField(node, "right") as NjNode;
  const value = nodeField(right, "value");
  if (!isA(right, nodeClass("Literal")) || typeof value !== "string") return;
  let read: TwigRegexSource;
  try {
    read = readTwigRegex(value);
    new RegExp(read.pattern, read.flags);
  } catch (error) {
    fail(`regexp "${value.slice(0, 60)}" passed to "matches" is not valid: ${(error as Error).message.replace(/^matches: /, "")}`, right);
  }
  try {
    RE2JS.compile(read.pattern, (read.flags.includes("m") ? RE2JS.MULTILINE : 0) | (read.flags.includes("s") ? RE2JS.DOTALL : 0));
  } catch (error) {
    fail(`regexp "${value.slice(0, 60)}" passed to "matches" cannot run in linear time (no backreferences or lookarounds): ${(error as Error).message}`, right);
  }
}

/** `x is defined` works on names, attributes, calls and literals; Twig refuses it on other expressions. */
function checkDefined(node: NjNode): void {
  const right = nodeField(node, "right") as NjNode;
  if (!isA(right, njNodes.Symbol) || nodeField(right, "value") !== "defined") return;
  let left = nodeField(node, "left") as NjNode;
  while (isA(left, njNodes.Group) && (left as NjNodeList).children.length === 1) left = (left as NjNodeList).children[0] as NjNode;
  const simple = [njNodes.Symbol, njNodes.LookupVal, njNodes.FunCall, nodeClass("Literal"), nodeClass("Array"), nodeClass("Dict")];
  if (!simple.some((type) => isA(left, type))) fail('the "defined" test only works with variables, attributes and keys (like x.y or x[0])', left);
}

/** Method calls (`x.y()`) inside the operand of `default` or `defined`: null when there is no method. */
const lenientCalls = new WeakSet<NjNode>();

function markLenientCalls(operand: unknown): void {
  if (!isNode(operand)) return;
  walk(operand, (node) => {
    if (isA(node, njNodes.FunCall) && isA(nodeField(node, "name"), njNodes.LookupVal)) lenientCalls.add(node);
  });
}

/** The `sameas(x)` of `is sameas(x)`: a test with arguments, not a function call. */
const testCalls = new WeakSet<NjNode>();

function checkNode(node: NjNode, functions: Set<TemplateFunctionName>, bound: ReadonlySet<string>): void {
  for (const [type, what] of FORBIDDEN) {
    if (isA(node, (type as typeof njNodes.Node))) fail(`${what} is not available in command templates`, node);
  }
  if (isA(node, njNodes.Filter)) {
    const name = String(nodeField(nodeField(node, "name") as NjNode, "value"));
    if (!KNOWN_FILTERS.has(name)) fail(`unknown filter "${name}"`, node);
    const timezone = (nodeField(node, "args") as NjNodeList).children[2];
    if (name === "date" && isA(timezone, nodeClass("Literal")) && typeof nodeField(timezone as NjNode, "value") === "string") {
      const value = String(nodeField(timezone as NjNode, "value"));
      if (!isUtc(value)) fail(`date: only the UTC time zone is available in command templates, not "${value.slice(0, 40)}"`, node);
    }
    if (name === "default") markLenientCalls((nodeField(node, "args") as NjNodeList).children[0]);
    const strategy = (nodeField(node, "args") as NjNodeList).children[1];
    if ((name === "escape" || name === "e") && isA(strategy, nodeClass("Literal"))) {
      const value = String(nodeField(strategy as NjNode, "value"));
      if (!ESCAPE_STRATEGIES.includes(value)) fail(`escape: unknown strategy "${value.slice(0, 20)}" (${ESCAPE_STRATEGIES.join(", ")})`, node);
    }
  } else if (isA(node, njNodes.Is)) {
    const right = nodeField(node, "right") as NjNode;
    const named = nodeField(right, "name");
    const name = String(isNode(named) ? nodeField(named, "value") : nodeField(right, "value"));
    if (!KNOWN_TESTS.has(name)) fail(`unknown test "${name}"`, node);
    checkDefined(node);
    if (name === "defined") markLenientCalls(nodeField(node, "left"));
    testCalls.add(right);
  } else if (isA(node, StringTestNode)) {
    checkMatches(node);
  } else if (isA(node, njNodes.FunCall) && !testCalls.has(node)) {
    const callee = nodeField(node, "name");
    if (isA(callee, njNodes.Symbol)) {
      const name = String(nodeField(callee as NjNode, "value"));
      if (!bound.has(name)) {
        if (!BUILTIN_FUNCTIONS.has(name) && !FUNCTION_NAMES.has(name)) {
          fail(`unknown function "${name}": it is not available in command templates`, node);
        }
        const first = (nodeField(node, "args") as NjNodeList).children[0];
        if (NEEDS_ARGUMENTS.has(name) && (first === undefined || isA(first, UndefinedNode))) {
          fail(`the function "${name}" needs at least one argument`, node);
        }
      }
    }
  } else if (isA(node, njNodes.Symbol)) {
    const name = String(nodeField(node, "value"));
    if (FUNCTION_NAMES.has(name)) functions.add(name as TemplateFunctionName);
  }
}

/**
 * The call a template makes before anything else, when there is one: the first node that is not
 * plain text is `{{ name(literal, ...) }}`, a template function (not a name the template binds
 * itself) called with string or number literals only. Every render then makes exactly this call
 * first with exactly these arguments (only text comes before it, and text has no effects), so the
 * host can make it before the first pass instead of after a pass that stops at it: the isolate
 * still replays it from the recorded answer and checks name and arguments. Anything else (a filter
 * on the call, an expression in an argument, a condition or `set` before it) gives none.
 */
function leadingCallOf(root: NjNodeList, bound: ReadonlySet<string>): LeadingCall | undefined {
  const Output = nodeClass("Output");
  const TemplateData = nodeClass("TemplateData");
  const Literal = nodeClass("Literal");
  for (const node of root.children) {
    if (!isA(node, Output)) return undefined;
    for (const child of (node as NjNodeList).children) {
      if (isA(child, TemplateData)) continue;
      const call = isA(child, PrintNode) ? (nodeField(child, "target") as NjNode) : null;
      if (call === null || !isA(call, njNodes.FunCall) || testCalls.has(call) || lenientCalls.has(call)) return undefined;
      const callee = nodeField(call, "name");
      if (!isA(callee, njNodes.Symbol)) return undefined;
      const name = String(nodeField(callee as NjNode, "value"));
      if (!FUNCTION_NAMES.has(name) || bound.has(name)) return undefined;
      const args: Array<string | number> = [];
      for (const arg of (nodeField(call, "args") as NjNodeList).children) {
        const value = isA(arg, Literal) ? nodeField(arg, "value") : undefined;
        if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) args.push(value);
        else return undefined;
      }
      return { name: name as TemplateFunctionName, argsJson: JSON.stringify(args) };
    }
  }
  return undefined;
}

/** Wraps every condition in a Truthy node so `if`, `not`, `and`, `or` and `?:` follow Twig. */
function applyTwigTruthiness(root: NjNode): void {
  const wrap = (node: NjNode, field: string): void => {
    const target = nodeField(node, field);
    if (isNode(target) && !(isA(target, TruthyNode))) {
      setNodeField(node, field, new TruthyNode(target.lineno, target.colno, target));
    }
  };
  walk(root, (node) => {
    if (isA(node, njNodes.If) || isA(node, njNodes.InlineIf)) wrap(node, "cond");
    else if (isA(node, njNodes.Not)) wrap(node, "target");
    else if (isA(node, njNodes.And) || isA(node, njNodes.Or)) {
      wrap(node, "left");
      wrap(node, "right");
    }
  });
}

function toSyntaxError(error: unknown, source: string): TemplateSyntaxError {
  if (error instanceof TemplateSyntaxError) return error;
  if (error instanceof RangeError) {
    return new TemplateSyntaxError("template is nested too deeply", 1, 1, { cause: error });
  }
  const nj = error as NjTemplateError;
  const raw = typeof nj?.message === "string" ? nj.message : String(error);
  const message = raw.replace(/^[a-zA-Z]+: /, "").replace(/^Template render error: /, "");
  if (nj?.lineno !== undefined && nj.colno !== undefined) {
    return new TemplateSyntaxError(message, nj.lineno, nj.colno, { cause: error });
  }
  // nunjucks gives no position when the source ends early: point at its end.
  const lines = source.split("\n");
  return new TemplateSyntaxError(message, lines.length, (lines.at(-1)?.length ?? 0) + 1, { cause: error });
}

/**
 * Parses and compiles Twig-syntax source to JavaScript on the host. Nothing of the template runs
 * here: the result is source text for the sandbox. Throws {@link TemplateSyntaxError} (with line and
 * column) for anything the language does not accept.
 */
export function compileTwig(source: string): CompiledTwig {
  if (source.length > MAX_TEMPLATE_SOURCE_LENGTH) {
    throw new TemplateSyntaxError(
      `template is ${source.length} characters long; the limit is ${MAX_TEMPLATE_SOURCE_LENGTH}`,
      1,
      1,
    );
  }
  try {
    const ast = applyTwigRewrites(parseTwig(source), fail);
    const functions = new Set<TemplateFunctionName>();
    const bound = boundNames(ast);
    walk(ast, (node) => checkNode(node, functions, bound));
    const variables = variableAccess(ast);
    const leadingCall = leadingCallOf(ast, bound);
    applyTwigTruthiness(ast);
    const compiler = new TwigCompiler("command", false);
    compiler.compile(njTransformer.transform(ast, []));
    return { code: compiler.getCode(), functions: [...functions].sort(), variables, ...definedKeys({ leadingCall }) };
  } catch (error) {
    throw toSyntaxError(error, source);
  }
}

/** A stable id for compiled code (the sandbox caches compiled templates by it). */
export function templateId(code: string): string {
  return createHash("sha256").update(code).digest("base64url").slice(0, 22);
}
