import { z } from "zod";
import { emptyStoreData } from "./records.js";
import type { AlertLogEntry, QueueStateRecord, StoreData } from "./records.js";

/**
 * How the in-memory store is cut into documents that are written on their own:
 * - `meta`: schema version, id sequences, installation facts;
 * - `user:<id>`: a user's record and everything that belongs to the user (connections, tokens,
 *   browser sources, alert sets, commands, queue state);
 * - `kv:<channel>`: one channel's key-value tables (`extensions.kv[channel]`) but its viewer tables;
 * - `kvv:<channel>/<table>/<n>`: chunk n of a channel's viewer table (`points`, `points_viewers`:
 *   one key per viewer, up to 200,000), `extensions.kv_viewers[channel][table][n]` (see key-value.ts);
 * - `ext:<key>`: any other extension (`extensions[key]`).
 * Alert logs are not documents: they are appended as events (see `alert-log-events.ts`).
 */
export type DocumentKey = `meta` | `user:${number}` | `kv:${string}` | `kvv:${string}` | `ext:${string}`;

/** The key-value extension, stored per channel rather than as one document. */
export const KV_EXTENSION = "kv";
/** The key-value viewer tables, stored per chunk of a channel's table: `[channel][table][chunk]`. */
export const KV_VIEWERS_EXTENSION = "kv_viewers";

/** A channel's viewer-table chunks in memory: table -> chunk number -> key -> value. */
export type ViewerChunks = Record<string, Record<string, Record<string, unknown>>>;

/** The document key of chunk `chunk` of a channel's viewer table. */
export function viewerChunkKey(channel: string, table: string, chunk: number | string): DocumentKey {
  return `kvv:${channel}/${table}/${chunk}`;
}

/** The channel, table and chunk of a `kvv:` document's name (the channel may hold `/`; table and chunk do not). */
function parseViewerChunk(name: string): { channel: string; table: string; chunk: string } | null {
  const last = name.lastIndexOf("/");
  const middle = last > 0 ? name.lastIndexOf("/", last - 1) : -1;
  if (middle < 0 || !/^\d+$/.test(name.slice(last + 1))) return null;
  return { channel: name.slice(0, middle), table: name.slice(middle + 1, last), chunk: name.slice(last + 1) };
}

function viewerChunksOf(data: Readonly<StoreData>): Record<string, ViewerChunks> {
  return (data.extensions[KV_VIEWERS_EXTENSION] ?? {}) as Record<string, ViewerChunks>;
}

/** Viewer chunks replaced in each data object (a load, another node's change): what a chunk index checks first. */
const viewerChunkReplacements = new WeakMap<object, number>();

/** How many times a viewer chunk of `data` was replaced whole (by `assemble` or `replaceDocument`). */
export function viewerChunkVersion(data: Readonly<StoreData>): number {
  return viewerChunkReplacements.get(data) ?? 0;
}

/** Sets (or with null deletes) one viewer chunk of the data, dropping emptied levels. */
function setViewerChunk(data: StoreData, name: string, body: unknown): void {
  viewerChunkReplacements.set(data, viewerChunkVersion(data) + 1);
  const parsed = parseViewerChunk(name);
  if (parsed === null) throw new DocumentShapeError(`kvv:${name}`, "not <channel>/<table>/<chunk>");
  if (body !== null && (typeof body !== "object" || Array.isArray(body))) throw new DocumentShapeError(`kvv:${name}`, "(root) Expected object");
  const all = (data.extensions[KV_VIEWERS_EXTENSION] ??= {}) as Record<string, ViewerChunks>;
  if (body !== null) {
    ((all[parsed.channel] ??= {})[parsed.table] ??= {})[parsed.chunk] = body as Record<string, unknown>;
    return;
  }
  const tables = all[parsed.channel];
  const chunks = tables?.[parsed.table];
  if (chunks === undefined) return;
  delete chunks[parsed.chunk];
  if (Object.keys(chunks).length === 0) delete tables![parsed.table];
  if (Object.keys(tables!).length === 0) delete all[parsed.channel];
}

/** The tables of a user document that hold records with a `user_id`. */
const USER_TABLES = ["connections", "personal_access_tokens", "browser_sources", "alert_sets", "commands"] as const;
type UserTable = (typeof USER_TABLES)[number];

/** A user document as stored. */
export type UserDocument = { user: StoreData["users"][number] | null; queue_state: QueueStateRecord | null } & {
  [T in UserTable]: StoreData[T];
};

/** The meta document as stored. */
export interface MetaDocument {
  schema_version: 2;
  sequences: Record<string, number>;
  meta: Record<string, unknown>;
}

const recordList = z.array(z.object({ id: z.number(), user_id: z.number() }).passthrough());
const userDocumentSchema = z.object({
  user: z.object({ id: z.number() }).passthrough().nullable(),
  queue_state: z.object({ paused: z.boolean(), paused_sources: z.array(z.number()).optional() }).nullable(),
  connections: recordList,
  personal_access_tokens: recordList,
  browser_sources: recordList,
  alert_sets: recordList,
  commands: recordList,
});
const metaDocumentSchema = z.object({
  schema_version: z.literal(2),
  sequences: z.record(z.string(), z.number()),
  meta: z.record(z.string(), z.unknown()),
});

/** Every document key the data holds something for. */
export function documentKeys(data: Readonly<StoreData>): Set<DocumentKey> {
  const keys = new Set<DocumentKey>(["meta"]);
  for (const u of data.users) keys.add(`user:${u.id}`);
  for (const table of USER_TABLES) for (const r of data[table]) keys.add(`user:${r.user_id}`);
  for (const id of Object.keys(data.queue_state)) keys.add(`user:${Number(id)}`);
  for (const [key, value] of Object.entries(data.extensions)) {
    if (key === KV_EXTENSION) for (const channel of Object.keys((value ?? {}) as object)) keys.add(`kv:${channel}`);
    else if (key !== KV_VIEWERS_EXTENSION) keys.add(`ext:${key}`);
  }
  for (const [channel, tables] of Object.entries(viewerChunksOf(data))) {
    for (const [table, chunks] of Object.entries(tables)) for (const chunk of Object.keys(chunks)) keys.add(viewerChunkKey(channel, table, chunk));
  }
  return keys;
}

/** The body of one document, or null when the data holds nothing for it (the document is deleted). */
export function documentBody(data: Readonly<StoreData>, key: DocumentKey): unknown {
  if (key === "meta") return { schema_version: 2, sequences: data.sequences, meta: data.meta } satisfies MetaDocument;
  const colon = key.indexOf(":");
  const kind = key.slice(0, colon);
  const name = key.slice(colon + 1);
  if (kind === "user") {
    const id = Number(name);
    const doc: UserDocument = {
      user: data.users.find((u) => u.id === id) ?? null,
      queue_state: data.queue_state[name] ?? null,
      connections: data.connections.filter((r) => r.user_id === id),
      personal_access_tokens: data.personal_access_tokens.filter((r) => r.user_id === id),
      browser_sources: data.browser_sources.filter((r) => r.user_id === id),
      alert_sets: data.alert_sets.filter((r) => r.user_id === id),
      commands: data.commands.filter((r) => r.user_id === id),
    };
    const empty = doc.user === null && doc.queue_state === null && USER_TABLES.every((t) => doc[t].length === 0);
    return empty ? null : doc;
  }
  if (kind === "kv") return (data.extensions[KV_EXTENSION] as Record<string, unknown> | undefined)?.[name] ?? null;
  if (kind === "kvv") {
    const parsed = parseViewerChunk(name);
    return (parsed && viewerChunksOf(data)[parsed.channel]?.[parsed.table]?.[parsed.chunk]) ?? null;
  }
  return data.extensions[name] ?? null;
}

/** Thrown by `assemble` for a document that is not what its key says; names the key. */
export class DocumentShapeError extends Error {
  constructor(readonly key: string, detail: string) {
    super(`${key}: ${detail}`);
  }
}

function shape<T>(schema: z.ZodType<T>, key: string, body: unknown): T {
  const checked = schema.safeParse(body);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  throw new DocumentShapeError(key, `${issue?.path.join(".") || "(root)"} ${issue?.message ?? ""}`.trim());
}

/**
 * Builds the in-memory data from stored documents and alert logs. Sequences are raised to the
 * highest id found, so records written before a crash cut off the meta document keep unique ids.
 */
export function assemble(documents: ReadonlyMap<string, unknown>, alertLogs: ReadonlyMap<number, AlertLogEntry[]>): StoreData {
  const data = emptyStoreData();
  const meta = documents.get("meta");
  if (meta !== undefined) {
    const m = shape(metaDocumentSchema, "meta", meta);
    data.sequences = m.sequences;
    data.meta = m.meta;
  }
  const kv: Record<string, unknown> = {};
  for (const [key, body] of documents) {
    if (key.startsWith("user:")) {
      const doc = shape(userDocumentSchema, key, body) as unknown as UserDocument;
      if (doc.user) data.users.push(doc.user);
      if (doc.queue_state) data.queue_state[key.slice(5)] = doc.queue_state;
      for (const table of USER_TABLES) (data[table] as unknown[]).push(...doc[table]);
    } else if (key.startsWith("kv:")) kv[key.slice(3)] = body;
    else if (key.startsWith("kvv:")) setViewerChunk(data, key.slice(4), body);
    else if (key.startsWith("ext:")) data.extensions[key.slice(4)] = body;
  }
  if (Object.keys(kv).length > 0) data.extensions[KV_EXTENSION] = kv;
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  data.users.sort(byId);
  for (const table of USER_TABLES) (data[table] as Array<{ id: number }>).sort(byId);
  for (const [userId, entries] of alertLogs) if (entries.length > 0) data.alert_log[String(userId)] = entries;
  raiseSequences(data);
  return data;
}

/** Raises each id sequence to at least the highest id in use. */
export function raiseSequences(data: StoreData): void {
  const raise = (name: string, ids: Iterable<number>) => {
    let max = data.sequences[name] ?? 0;
    for (const id of ids) if (id > max) max = id;
    if (max > 0) data.sequences[name] = max;
  };
  raise("users", data.users.map((r) => r.id));
  for (const table of USER_TABLES) raise(table, data[table].map((r) => r.id));
  raise("alert_log", Object.values(data.alert_log).flatMap((entries) => entries.map((e) => e.seq)));
  // Timers and goal bars (bot-modules.ts): ids in the per-user documents `<kind>.<userId>`, and the
  // `next_id` these kinds kept under `extensions.<kind>` before they used the store's sequences.
  for (const kind of RECORD_EXTENSIONS) {
    const ids: number[] = [];
    const legacy = (data.extensions[kind] as { next_id?: unknown } | undefined)?.next_id;
    if (typeof legacy === "number") ids.push(legacy - 1);
    for (const [key, value] of Object.entries(data.extensions)) {
      if (key.startsWith(`${kind}.`) && Array.isArray(value)) for (const r of value as Array<{ id?: unknown }>) if (typeof r?.id === "number") ids.push(r.id);
    }
    raise(kind, ids);
  }
}

/** Extensions holding per-user lists of records with ids (`<kind>.<userId>`), whose sequence is `<kind>`. */
export const RECORD_EXTENSIONS = ["timers", "goal_bars"] as const;

/**
 * Replaces one document's part of the in-memory data with `body` (null: the document is gone), in
 * place: the inverse of `documentBody` for one key. Used when another node changed the document.
 * Throws DocumentShapeError when the body is not what the key says.
 */
export function replaceDocument(data: StoreData, key: DocumentKey, body: unknown): void {
  if (key === "meta") {
    if (body === null) return;
    const m = shape(metaDocumentSchema, "meta", body);
    for (const [name, value] of Object.entries(m.sequences)) if (value > (data.sequences[name] ?? 0)) data.sequences[name] = value;
    data.meta = m.meta;
    return;
  }
  const colon = key.indexOf(":");
  const kind = key.slice(0, colon);
  const name = key.slice(colon + 1);
  if (kind === "user") {
    const doc = body === null ? null : (shape(userDocumentSchema, key, body) as unknown as UserDocument);
    const id = Number(name);
    replaceRecords(data.users, (r) => r.id === id, doc?.user ? [doc.user] : []);
    for (const table of USER_TABLES) replaceRecords(data[table] as Array<{ id: number; user_id: number }>, (r) => r.user_id === id, doc?.[table] ?? []);
    if (doc?.queue_state) data.queue_state[name] = doc.queue_state;
    else delete data.queue_state[name];
    return;
  }
  if (kind === "kv") {
    const kv = (data.extensions[KV_EXTENSION] ??= {}) as Record<string, unknown>;
    if (body === null) delete kv[name];
    else kv[name] = body;
    return;
  }
  if (kind === "kvv") return setViewerChunk(data, name, body);
  if (body === null) delete data.extensions[name];
  else data.extensions[name] = body;
}

/** The id-ordered tables of the data (users and the user documents' tables). */
function idTables(data: StoreData): Array<Array<{ id: number }>> {
  return [data.users, ...USER_TABLES.map((t) => data[t])];
}

/** Each id-ordered table's length, taken before a change (see `restoreIdOrder`). */
export function tableLengths(data: StoreData): number[] {
  return idTables(data).map((list) => list.length);
}

/**
 * Moves the records appended since `lengths` were taken into id order (tables are kept in id
 * order). With several nodes, ids come from per-node blocks, so a record created here may have a
 * lower id than one another node created before it.
 */
export function restoreIdOrder(data: StoreData, lengths: readonly number[]): void {
  idTables(data).forEach((list, t) => {
    for (let i = Math.min(lengths[t] ?? 0, list.length); i < list.length; i++) {
      for (let j = i; j > 0 && (list[j] as { id: number }).id < (list[j - 1] as { id: number }).id; j--) {
        const moved = list[j] as { id: number };
        list[j] = list[j - 1] as { id: number };
        list[j - 1] = moved;
      }
    }
  });
}

/** Removes the records `mine` matches from `list` and inserts `records`, keeping `list` sorted by id. */
function replaceRecords<T extends { id: number }>(list: T[], mine: (r: T) => boolean, records: readonly T[]): void {
  for (let i = list.length - 1; i >= 0; i--) if (mine(list[i] as T)) list.splice(i, 1);
  for (const record of records) {
    let at = list.length;
    while (at > 0 && (list[at - 1] as T).id > record.id) at--;
    list.splice(at, 0, record);
  }
}

/**
 * The users whose data the documents `keys` hold: `user:<id>`, and the per-user extensions
 * `ext:<kind>.<id>` of `kinds` (to reload what a module derived from them after another node's change).
 */
export function usersOfDocuments(keys: readonly DocumentKey[], kinds: readonly string[] = []): number[] {
  const users = new Set<number>();
  for (const key of keys) {
    const match = /^user:(\d+)$/.exec(key) ?? (kinds.some((kind) => key.startsWith(`ext:${kind}.`)) ? /\.(\d+)$/.exec(key) : null);
    if (match) users.add(Number(match[1]));
  }
  return [...users];
}

/** Every document and alert log of the data: the inverse of `assemble`. */
export function split(data: Readonly<StoreData>): { documents: Map<string, unknown>; alertLogs: Map<number, AlertLogEntry[]> } {
  const documents = new Map<string, unknown>();
  for (const key of documentKeys(data)) {
    const body = documentBody(data, key);
    if (body !== null) documents.set(key, body);
  }
  const alertLogs = new Map<number, AlertLogEntry[]>();
  for (const [userId, entries] of Object.entries(data.alert_log)) if (entries.length > 0) alertLogs.set(Number(userId), entries);
  return { documents, alertLogs };
}
