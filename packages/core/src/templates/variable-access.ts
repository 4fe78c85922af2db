import type { NjNode } from "./nunjucks-internals.js";
import { childFields, isNode, njNodes, nodeField } from "./nunjucks-internals.js";

/** What a template reads of one value: all of it (`true`), or only some keys (each with its own need). */
export type AccessNeed = true | ReadonlyMap<string, AccessNeed>;

/** The template variables whose parts are tracked. */
export const TEMPLATE_VARIABLES = ["command", "event", "args", "irc"] as const;
const VARIABLES: ReadonlySet<string> = new Set(TEMPLATE_VARIABLES);

function isA(value: unknown, type: unknown): boolean {
  return value instanceof (type as typeof Object);
}

/** `[variable, key, key...]` when `node` is a variable or a chain of literal lookups on one. */
function staticPath(node: NjNode): string[] | null {
  if (isA(node, njNodes.Symbol)) {
    const name = String(nodeField(node, "value"));
    return VARIABLES.has(name) ? [name] : null;
  }
  if (isA(node, njNodes.LookupVal)) {
    const key = nodeField(node, "val");
    if (!isNode(key) || !isA(key, njNodes.Literal)) return null;
    const value = nodeField(key, "value");
    if (typeof value !== "string" && typeof value !== "number") return null;
    const base = staticPath(nodeField(node, "target") as NjNode);
    return base ? [...base, String(value)] : null;
  }
  return null;
}

/**
 * What of `command`, `event`, `args` and `irc` a template can ever read. Only literal lookup chains
 * (`event.user.username`, `args[1]`, `event["user"]`) narrow a variable; any other use of it
 * (`event[k]`, `event|dump`, `{% set e = event %}`, a name that merely looks like a variable)
 * needs it whole. Over-approximating is safe; the sandbox then copies only what is read.
 */
export function variableAccess(root: NjNode): ReadonlyMap<string, AccessNeed> {
  const needs = new Map<string, AccessNeed>();
  const record = (path: readonly string[]): void => {
    let level = needs;
    for (let i = 0; i < path.length; i++) {
      const key = path[i] as string;
      const existing = level.get(key);
      if (existing === true) return;
      if (i === path.length - 1) {
        level.set(key, true);
        return;
      }
      let next = existing as Map<string, AccessNeed> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(key, next);
      }
      level = next;
    }
  };
  const visit = (node: NjNode): void => {
    const path = staticPath(node);
    if (path) {
      record(path);
      return;
    }
    for (const field of childFields(node)) {
      const value = nodeField(node, field);
      if (Array.isArray(value)) {
        for (const child of value) if (isNode(child)) visit(child);
      } else if (isNode(value)) {
        visit(value);
      }
    }
  };
  visit(root);
  return needs;
}

/**
 * The JSON of the part of `value` a template can read, given its need (`undefined` where
 * `JSON.stringify` gives it). Arrays, primitives and objects missing a needed key are kept whole (so
 * lengths, indexes and own-property checks see the real thing). Written straight from `value`
 * along the need, without building the pruned object first: this runs once per render.
 */
export function prunedJson(value: unknown, need: AccessNeed): string | undefined {
  if (need === true || value === null || typeof value !== "object" || Array.isArray(value)) return JSON.stringify(value);
  const source = value as Record<string, unknown>;
  let out = "{";
  for (const [key, sub] of need) {
    if (!Object.prototype.hasOwnProperty.call(source, key)) return JSON.stringify(value);
    const json = prunedJson(source[key], sub);
    // Like JSON.stringify, leave out keys whose value has no JSON (undefined, functions).
    if (json !== undefined) out += `${out.length === 1 ? "" : ","}${JSON.stringify(key)}:${json}`;
  }
  return `${out}}`;
}
