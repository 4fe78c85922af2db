import { canonicalJson } from "./store-transfer.js";
import type { DocumentKey } from "./partitions.js";

/**
 * How two numbers both changed since the base combine: `add` keeps both changes (counters and
 * points: concurrent increments on two nodes both count), `max` keeps the larger (sequences), and
 * `local` keeps this node's value (the later write).
 */
type NumberRule = "add" | "max" | "local";

/** What a merge gives: the merged body (null: the document is gone) and the paths both sides changed. */
export interface MergeResult {
  body: unknown;
  /** JSON paths changed differently on both sides, where one side's change was kept (for a log line). */
  conflicts: string[];
}

/**
 * Fields that identify an element of a list of records, in the order they are tried: a list whose
 * elements all have one of them (unique, a string or a number) is merged element by element.
 */
const IDENTITY_FIELDS = ["id", "id_hash", "state_hash", "token_hash", "interaction_uid", "client_id", "kid", "user_id"] as const;

type Json = unknown;

function same(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== "object" || typeof b !== "object") return false;
  return canonicalJson(a) === canonicalJson(b);
}

function isRecord(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The identity field shared by every element of every list, or null. */
function identityField(lists: ReadonlyArray<readonly Json[]>): string | null {
  for (const field of IDENTITY_FIELDS) {
    const ok = lists.every((list) => {
      const seen = new Set<unknown>();
      for (const element of list) {
        if (!isRecord(element)) return false;
        const id = element[field];
        if ((typeof id !== "string" && typeof id !== "number") || seen.has(id)) return false;
        seen.add(id);
      }
      return true;
    });
    if (ok) return field;
  }
  return null;
}

function mergeValue(base: Json, local: Json, remote: Json, rule: NumberRule, path: string, conflicts: string[]): Json {
  if (same(local, base)) return remote;
  if (same(remote, base)) return local;
  if (typeof local === "number" && typeof remote === "number" && (typeof base === "number" || base === undefined) && rule !== "local") {
    return rule === "add" ? remote + (local - ((base as number | undefined) ?? 0)) : Math.max(local, remote);
  }
  // Equal changes on both sides are one change, except objects of key-value data: equal counts
  // there may be two increments (each leaf decides).
  if (same(local, remote) && !(rule === "add" && isRecord(local))) return local;
  // One side removed what the other changed: the removal wins.
  if (local === undefined || remote === undefined) {
    conflicts.push(path);
    return undefined;
  }
  if (isRecord(local) && isRecord(remote) && (base === undefined || isRecord(base))) {
    const b = (base ?? {}) as Record<string, Json>;
    const out: Record<string, Json> = {};
    // Remote keys first (in the remote order), then keys only this node added.
    for (const key of new Set([...Object.keys(remote), ...Object.keys(local)])) {
      const merged = mergeValue(b[key], local[key], remote[key], rule, `${path}.${key}`, conflicts);
      if (merged !== undefined) out[key] = merged;
    }
    return out;
  }
  if (Array.isArray(local) && Array.isArray(remote) && (base === undefined || Array.isArray(base))) {
    const b = (base ?? []) as Json[];
    const field = identityField([b, local, remote]);
    if (field !== null) {
      const byId = (list: readonly Json[]) => new Map(list.map((e) => [(e as Record<string, Json>)[field], e]));
      const [bm, lm, rm] = [byId(b), byId(local), byId(remote)];
      const out: Json[] = [];
      for (const id of new Set([...rm.keys(), ...lm.keys()])) {
        const merged = mergeValue(bm.get(id), lm.get(id), rm.get(id), rule, `${path}[${field}=${String(id)}]`, conflicts);
        if (merged !== undefined) out.push(merged);
      }
      // Lists of records by numeric id are kept in id order, as the store keeps them.
      if (field === "id" && out.every((e) => typeof (e as Record<string, Json>)["id"] === "number")) out.sort((x, y) => ((x as { id: number }).id - (y as { id: number }).id));
      return out;
    }
  }
  conflicts.push(path);
  return local;
}

/**
 * Three-way merge of a document another node changed while this node changed it too: `base` is
 * the version both started from (undefined: the document did not exist), `local` this node's body,
 * `remote` the stored one (null: deleted). Objects merge key by key and lists of records element by
 * element (by `id` or another identity field), so changes to different records, fields or
 * key-value keys all survive. Numbers both sides changed add up in key-value documents (concurrent
 * `inc` on two nodes both count) and take the larger in the meta document; any other value both
 * sides changed differently keeps this node's (the later write), and a removal wins over a change.
 */
export function mergeDocument(key: DocumentKey, base: unknown, local: unknown, remote: unknown): MergeResult {
  const rule: NumberRule = key.startsWith("kv:") || key.startsWith("kvv:") ? "add" : key === "meta" ? "max" : "local";
  const conflicts: string[] = [];
  const body = mergeValue(base ?? undefined, local ?? undefined, remote ?? undefined, rule, key, conflicts);
  return { body: body ?? null, conflicts };
}
