import { Script } from "node:vm";
import { TemplateSyntaxError } from "./template-errors.js";
import type { NjNode } from "./nunjucks-internals.js";
import { isNode, nodeField } from "./nunjucks-internals.js";
import { MAX_TEMPLATE_SOURCE_LENGTH } from "./twig-compiler.js";
import { parseTwig } from "./twig-parser.js";

/** Bounds of compiling a command template on the host (documented in docs/templates.md and docs/security.md). */
export const TEMPLATE_COMPILE_LIMITS = {
  /** Deepest nesting of the template's syntax tree (calls, lookups, filters, brackets, tags). */
  maxNesting: 64,
  /** Most characters of JavaScript one template may compile to. */
  maxCompiledChars: 131_072,
} as const;

/** Characters the compiler spends per syntax node besides the callee names (a generous upper bound). */
const PER_NODE_ALLOWANCE = 160;

function children(node: NjNode): NjNode[] {
  const out: NjNode[] = [];
  for (const field of node.fields) {
    const value = nodeField(node, field);
    if (Array.isArray(value)) {
      for (const child of value) if (isNode(child)) out.push(child);
    } else if (isNode(value)) {
      out.push(value);
    }
  }
  return out;
}

/**
 * The length of the name the compiler writes for a callee in every call's error message (nunjucks
 * spells the whole chain: `the return value of (a["b"])`...), memoised, so it costs one pass.
 */
function calleeNameLength(node: NjNode, memo: Map<NjNode, number>): number {
  const known = memo.get(node);
  if (known !== undefined) return known;
  let length: number;
  switch (node.typename) {
    case "Symbol":
    case "Literal":
      length = String(nodeField(node, "value")).length + 2;
      break;
    case "LookupVal":
      length = calleeNameLength(nodeField(node, "target") as NjNode, memo) + calleeNameLength(nodeField(node, "val") as NjNode, memo) + 4;
      break;
    case "FunCall":
      length = calleeNameLength(nodeField(node, "name") as NjNode, memo) + 30;
      break;
    default:
      length = 16;
  }
  memo.set(node, length);
  return length;
}

function refuse(message: string, node: NjNode | null): never {
  throw new TemplateSyntaxError(message, node ? node.lineno + 1 : 1, node ? node.colno + 1 : 1);
}

/**
 * Checks, before compiling, that the template's syntax tree nests at most `maxNesting` levels and
 * that the JavaScript it compiles to stays under `maxCompiledChars` (an upper-bound estimate in one
 * pass: what makes compiled code grow faster than the source is the callee name the compiler repeats
 * for each call of a chain, `f()()()...`). So compiling an accepted template costs time and memory
 * proportional to a bounded output. Throws {@link TemplateSyntaxError} naming the limit.
 */
export function checkCompileBounds(source: string): void {
  if (source.length > MAX_TEMPLATE_SOURCE_LENGTH) return; // the compiler refuses it without parsing
  let ast: NjNode;
  try {
    ast = parseTwig(source);
  } catch {
    return; // the compiler reports syntax errors with their position
  }
  const memo = new Map<NjNode, number>();
  let estimate = 0;
  let deepest: { depth: number; node: NjNode | null } = { depth: 0, node: null };
  const stack: Array<[NjNode, number]> = [[ast, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [NjNode, number];
    if (depth > deepest.depth) deepest = { depth, node };
    if (depth > TEMPLATE_COMPILE_LIMITS.maxNesting) {
      refuse(`template nests more than ${TEMPLATE_COMPILE_LIMITS.maxNesting} levels deep; the nesting limit is ${TEMPLATE_COMPILE_LIMITS.maxNesting}`, node);
    }
    estimate += PER_NODE_ALLOWANCE;
    if (node.typename === "FunCall") estimate += calleeNameLength(nodeField(node, "name") as NjNode, memo);
    if (estimate > TEMPLATE_COMPILE_LIMITS.maxCompiledChars) {
      refuse(`template would compile to more than ${TEMPLATE_COMPILE_LIMITS.maxCompiledChars} characters of code; the compiled-size limit is ${TEMPLATE_COMPILE_LIMITS.maxCompiledChars}`, node);
    }
    // Argument lists and bodies are containers: only the nodes in them count as a level.
    const next = node.typename === "NodeList" ? depth : depth + 1;
    for (const child of children(node)) stack.push([child, next]);
  }
}

/**
 * Checks compiled code after compiling: its exact size against `maxCompiledChars`, and that V8
 * accepts it as JavaScript (parsed on the host, never run), so a template like `{{ - -1 }}` (which
 * compiles to `--1`) is refused when saved instead of failing at every run.
 */
export function checkCompiledCode(code: string): void {
  if (code.length > TEMPLATE_COMPILE_LIMITS.maxCompiledChars) {
    refuse(`template compiles to ${code.length} characters of code; the compiled-size limit is ${TEMPLATE_COMPILE_LIMITS.maxCompiledChars}`, null);
  }
  try {
    new Script(`(function () {\n${code}\n})`, { filename: "command-template.js" });
  } catch (error) {
    refuse(`template compiles to invalid JavaScript (${error instanceof Error ? error.message : String(error)}); rewrite the expression`, null);
  }
}
