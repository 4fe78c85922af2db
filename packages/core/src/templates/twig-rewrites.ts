import type { NjNode, NjNodeList } from "./nunjucks-internals.js";
import { childFields, isNode, njNodes, nodeField, setNodeField } from "./nunjucks-internals.js";
import { TWIG_FILTER_SIGNATURES, TWIG_FUNCTION_SIGNATURES } from "./function-names.js";
import { nodeClass } from "./twig-parser.js";

/** `{{ x }}`: printed the Twig way (`true` as `1`, `false` and null as nothing). */
export const PrintNode = njNodes.Node.extend("TwigPrint", { fields: ["target"] });
/** The iterable of `{% for k, v in list %}`: a list's indexes become its keys, as in Twig. */
export const PairsNode = njNodes.Node.extend("TwigPairs", { fields: ["target"] });
/** The iterable of `{% for v in x %}`: a hash's values (nunjucks iterates only lists with one name). */
export const LoopValuesNode = njNodes.Node.extend("TwigLoopValues", { fields: ["target"] });
/** First statement of the body of a `for` with an `else`: notes that the loop ran (`flag` is the variable). */
export const ForRanNode = njNodes.Node.extend("TwigForRan", { fields: [] });
/** An argument left out between named ones (`round(method='ceil')`). */
export const UndefinedNode = njNodes.Node.extend("TwigUndefined", { fields: [] });

type Fail = (message: string, node: NjNode) => never;

function isA(value: unknown, name: string): boolean {
  return value instanceof (nodeClass(name) as unknown as typeof Object);
}

/** Rebuilds `node` bottom-up: `visit` may return a replacement for each node (or an array to splice into a list). */
function rewrite(node: NjNode, visit: (node: NjNode) => NjNode | NjNode[]): NjNode | NjNode[] {
  for (const field of childFields(node)) {
    const value = nodeField(node, field);
    if (Array.isArray(value)) {
      setNodeField(node, field, value.flatMap((child: unknown) => (isNode(child) ? rewrite(child, visit) : [child])));
    } else if (isNode(value)) {
      const replaced = rewrite(value, visit);
      setNodeField(node, field, Array.isArray(replaced) ? new njNodes.NodeList(value.lineno, value.colno, replaced) : replaced);
    }
  }
  return visit(node);
}

function symbolName(node: unknown): string | null {
  return isA(node, "Symbol") ? String(nodeField(node as NjNode, "value")) : null;
}

/** Named arguments (`join(glue=',')`) placed where the filter or function expects them. */
function placeNamedArguments(node: NjNode, kind: "filter" | "function", name: string, fail: Fail): void {
  const args = nodeField(node, "args") as NjNodeList;
  const last = args.children.at(-1);
  if (!isA(last, "KeywordArgs")) return;
  const signature = (kind === "filter" ? TWIG_FILTER_SIGNATURES : TWIG_FUNCTION_SIGNATURES)[name];
  if (!signature) fail(`the ${kind} "${name}" does not take named arguments`, node);
  const offset = kind === "filter" ? 1 : 0;
  const positional = args.children.slice(0, -1);
  const placed: Array<NjNode | undefined> = positional.slice(offset);
  for (const pair of (last as NjNodeList).children) {
    const key = nodeField(pair, "key");
    const argName = symbolName(key) ?? String(nodeField(key as NjNode, "value"));
    // Twig accepts the camelCase spelling of an argument too (`preserveKeys`).
    const index = signature.indexOf(argName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
    if (index === -1) fail(`the ${kind} "${name}" has no argument "${argName}" (arguments: ${signature.join(", ") || "none"})`, pair);
    if (placed[index] !== undefined) fail(`argument "${argName}" of the ${kind} "${name}" is given twice`, pair);
    placed[index] = nodeField(pair, "value") as NjNode;
  }
  const filled = Array.from(placed, (arg) => arg ?? new UndefinedNode(node.lineno, node.colno));
  args.children = [...positional.slice(0, offset), ...filled];
}

/**
 * Rewrites the parsed template into what the nunjucks compiler (taught the Twig nodes) compiles:
 * `_self` macros, `for k, v` over lists, named arguments of known filters and functions, Twig
 * printing, and `loop.parent`. Refuses, naming the construct, what it cannot express.
 */
export function applyTwigRewrites(root: NjNodeList, fail: Fail): NjNodeList {
  const selfAliases = new Set<string>();
  const loopDepth: NjNode[] = [];
  // Pass 1 (top-down, for scoping): `loop.parent` inside nested loops.
  const markLoops = (node: NjNode, outer: string | null): void => {
    let inner = outer;
    if (isA(node, "For")) {
      const id = `__twig_loop${loopDepth.length}`;
      loopDepth.push(node);
      // The body reads the loop of this `for`; its own `loop.parent.loop` reads the outer one.
      const body = nodeField(node, "body") as NjNode;
      if (outer !== null) replaceParentLoop(body, outer, fail);
      const set = new (nodeClass("Set"))(node.lineno, node.colno, [new njNodes.Symbol(node.lineno, node.colno, id)]);
      setNodeField(set, "value", new njNodes.Symbol(node.lineno, node.colno, "loop"));
      (body as NjNodeList).children.unshift(set);
      inner = id;
      for (const field of ["arr", "else_"]) {
        const value = nodeField(node, field);
        if (isNode(value)) markLoops(value, outer);
      }
      markLoops(body, inner);
      return;
    }
    for (const field of childFields(node)) {
      const value = nodeField(node, field);
      if (Array.isArray(value)) value.forEach((child: unknown) => isNode(child) && markLoops(child, inner));
      else if (isNode(value)) markLoops(value, inner);
    }
  };
  // Only templates that read `loop.parent` pay for the per-iteration capture of the outer loop.
  if (readsLoopParent(root)) markLoops(root, null);
  // Macros are defined before the template runs in Twig (`{% from _self import m %}` may precede `m`).
  root.children = [...root.children.filter((n) => isA(n, "Macro")), ...root.children.filter((n) => !isA(n, "Macro"))];

  const result = rewrite(root, (node) => {
    if (isA(node, "Import") && symbolName(nodeField(node, "template")) === "_self") {
      const target = symbolName(nodeField(node, "target"));
      if (target) selfAliases.add(target);
      return [];
    }
    if (isA(node, "FromImport") && symbolName(nodeField(node, "template")) === "_self") {
      const names = (nodeField(node, "names") as NjNodeList).children;
      return names.map((entry) => {
        const [from, to] = isA(entry, "Pair") ? [nodeField(entry, "key"), nodeField(entry, "value")] : [entry, entry];
        const set = new (nodeClass("Set"))(entry.lineno, entry.colno, [to]);
        setNodeField(set, "value", from);
        return set;
      });
    }
    if (isA(node, "LookupVal")) {
      let group = nodeField(node, "target");
      // `(macros).foo()`: parentheses around the alias.
      while (isA(group, "Group") && (group as NjNodeList).children.length === 1) group = (group as NjNodeList).children[0];
      const target = symbolName(group);
      const val = nodeField(node, "val");
      if (target !== null && (target === "_self" || selfAliases.has(target)) && isA(val, "Literal")) {
        return new njNodes.Symbol(node.lineno, node.colno, String(nodeField(val as NjNode, "value")));
      }
    }
    if (isA(node, "For")) {
      const arr = nodeField(node, "arr") as NjNode;
      const Wrap = isA(nodeField(node, "name"), "Array") ? PairsNode : LoopValuesNode;
      setNodeField(node, "arr", new Wrap(arr.lineno, arr.colno, arr));
    }
    if (isA(node, "Filter")) {
      const name = symbolName(nodeField(node, "name"));
      if (name) placeNamedArguments(node, "filter", name, fail);
    } else if (isA(node, "FunCall")) {
      const name = symbolName(nodeField(node, "name"));
      if (name && name in TWIG_FUNCTION_SIGNATURES) placeNamedArguments(node, "function", name, fail);
    }
    if (isA(node, "Output")) {
      const list = node as NjNodeList;
      list.children = list.children.map((child) => (isA(child, "TemplateData") ? child : new PrintNode(child.lineno, child.colno, child)));
    }
    return node;
  });
  return result as NjNodeList;
}

/** Inside the body of a nested loop: `loop.parent.loop` is the outer loop, `loop.parent.x` the variable x. */
function replaceParentLoop(body: NjNode, outerLoop: string, fail: Fail): void {
  const visit = (node: NjNode): NjNode | NjNode[] => {
    if (!isA(node, "LookupVal")) return node;
    const target = nodeField(node, "target");
    const val = nodeField(node, "val");
    if (!isA(target, "LookupVal") || symbolName(nodeField(target as NjNode, "target")) !== "loop") return node;
    const parentKey = nodeField(target as NjNode, "val");
    if (!isA(parentKey, "Literal") || nodeField(parentKey as NjNode, "value") !== "parent") return node;
    if (!isA(val, "Literal")) fail("loop.parent[...] needs a name (loop.parent.loop or loop.parent.variable)", node);
    const name = String(nodeField(val as NjNode, "value"));
    return new njNodes.Symbol(node.lineno, node.colno, name === "loop" ? outerLoop : name);
  };
  // Nested loops get their own rewrite when markLoops reaches them; only this level's `loop` is meant here.
  const walkBody = (node: NjNode): void => {
    for (const field of childFields(node)) {
      const value = nodeField(node, field);
      if (Array.isArray(value)) {
        setNodeField(node, field, value.map((child: unknown) => (isNode(child) && !isA(child, "For") ? (walkBody(child), visit(child)) : child)));
      } else if (isNode(value) && !isA(value, "For")) {
        walkBody(value);
        const replaced = visit(value);
        if (!Array.isArray(replaced)) setNodeField(node, field, replaced);
      }
    }
  };
  walkBody(body);
}

/** True when the template reads `loop.parent` anywhere. */
function readsLoopParent(node: NjNode): boolean {
  if (isA(node, "LookupVal")) {
    const target = nodeField(node, "target");
    const val = nodeField(node, "val");
    if (symbolName(target) === "loop" && isA(val, "Literal") && nodeField(val as NjNode, "value") === "parent") return true;
  }
  for (const field of childFields(node)) {
    const value = nodeField(node, field);
    if (Array.isArray(value) ? value.some((child: unknown) => isNode(child) && readsLoopParent(child)) : isNode(value) && readsLoopParent(value)) return true;
  }
  return false;
}
