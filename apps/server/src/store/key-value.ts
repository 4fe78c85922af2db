import type { KeyValueStore } from "@ovation/core";
import { KV_EXTENSION, KV_VIEWERS_EXTENSION, viewerChunkKey, viewerChunkVersion } from "./partitions.js";
import type { DocumentKey, ViewerChunks } from "./partitions.js";
import { ChunkIndex, combined } from "./viewer-chunks.js";
import type { Chunks } from "./viewer-chunks.js";
import type { Store } from "./store.js";
import { USER_CAPS, VIEWER_TABLES } from "./user-caps.js";

type Tables = Record<string, Record<string, Record<string, unknown>>>;

/**
 * A copy of a stored value, as `structuredClone` makes it: plain objects and arrays copied field by
 * field, anything else (a Date, a Map; a function, refused) by `structuredClone`. The values are
 * small JSON data, for which this is about five times quicker per call: a points tick naming
 * 100,000 new chatters copies 100,000 of them in one synchronous update, which held the event loop
 * (and every other user's request on the node) 3.5 s with `structuredClone`, 1 s with this, on a
 * loaded machine (`npm run bench giveaway`, PostgreSQL; apps/server/README.md).
 */
export function copyValue<T>(value: T, depth = 0): T {
  if (typeof value === "function" || typeof value === "symbol") return structuredClone(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth > 32) return structuredClone(value);
  if (Array.isArray(value)) return value.map((item: unknown) => copyValue(item, depth + 1)) as T;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = copyValue((value as Record<string, unknown>)[key], depth + 1);
    // An own "__proto__" (JSON.parse makes one) stays a field: assigned, it would set the prototype.
    if (key === "__proto__") Object.defineProperty(copy, key, { value: field, enumerable: true, writable: true, configurable: true });
    else copy[key] = field;
  }
  return copy as T;
}

/**
 * Per store data, channel and viewer table, where its keys live: one registry per data object, so
 * that every key-value store over the same data (the server has one; tests make more) shares it.
 */
const chunkIndexes = new WeakMap<object, Map<string, Map<string, ChunkIndex>>>();

/**
 * The command templates' per-channel key-value store (`db`, `inc`, `dec`, `set`, viewers' points),
 * kept under `extensions.kv` and written as one document per channel (the viewer tables apart,
 * below). Updates are synchronous on the data, so each field changes atomically. A new table or key beyond the user's caps
 * (`USER_CAPS.kvTables`, `USER_CAPS.kvKeys`) is refused with an error naming the cap, before
 * anything changes. The viewers' points tables (`points`, `points_viewers`: one key per viewer) have a
 * cap of their own per table (`USER_CAPS.pointsViewers`) instead of counting against `kvKeys`.
 *
 * The viewer tables hold up to 200,000 keys per channel, so they are not part of the channel's
 * document: each is kept in chunk documents of about 1,000 keys (viewer-chunks.ts)
 * (`extensions.kv_viewers[channel][table][n]`, document `kvv:<channel>/<table>/<n>`). A key stays in
 * the chunk it was first written to and a new key goes to the last chunk, so a points tick that
 * names 600 new chatters rewrites one or two 60 KB chunks, not a 6 MB document (whose JSON held the
 * event loop 100-170 ms per tick at 100,000 viewers, and counting its keys another 40 ms). Tables
 * that earlier versions kept inside the channel's document move into chunks when the store opens.
 */
export class StoreKeyValueStore implements KeyValueStore {
  constructor(private readonly store: Store) {
    this.#moveInlineViewerTables();
  }

  #tables(): Tables {
    return (this.store.data.extensions[KV_EXTENSION] as Tables | undefined) ?? {};
  }

  #chunks(channel: string, table: string): Chunks | undefined {
    return (this.store.data.extensions[KV_VIEWERS_EXTENSION] as Record<string, ViewerChunks> | undefined)?.[channel]?.[table];
  }

  #index(channel: string, table: string, chunks: Chunks): ChunkIndex {
    let indexes = chunkIndexes.get(this.store.data);
    if (indexes === undefined) chunkIndexes.set(this.store.data, (indexes = new Map()));
    let tables = indexes.get(channel);
    if (tables === undefined) indexes.set(channel, (tables = new Map()));
    let index = tables.get(table);
    if (index === undefined) tables.set(table, (index = new ChunkIndex()));
    return index.sync(chunks, viewerChunkVersion(this.store.data));
  }

  /** Every table of a channel, the viewer tables' chunks joined (read-only use: cap reports). */
  channelTables(channel: string): Record<string, Record<string, unknown>> {
    const tables: Record<string, Record<string, unknown>> = { ...(this.#tables()[channel] ?? {}) };
    for (const table of VIEWER_TABLES) if (this.#chunks(channel, table) !== undefined) tables[table] = this.#joined(channel, table, false);
    return tables;
  }

  /** A viewer table's keys over all of its chunks (copies when `copy`). */
  #joined(channel: string, table: string, copy: boolean): Record<string, unknown> {
    const chunks = this.#chunks(channel, table) ?? {};
    const joined: Record<string, unknown> = {};
    let duplicates = false;
    for (const name of Object.keys(chunks).sort((a, b) => Number(a) - Number(b))) {
      for (const [key, value] of Object.entries(chunks[name]!)) {
        if (Object.hasOwn(joined, key)) duplicates = true;
        else joined[key] = copy ? copyValue(value) : value;
      }
    }
    if (duplicates) {
      const index = this.#index(channel, table, chunks);
      for (const key of Object.keys(joined)) {
        const names = index.holders(chunks, key);
        if (names.length > 1) joined[key] = copy ? copyValue(combined(chunks, names, key)) : combined(chunks, names, key);
      }
    }
    return joined;
  }

  async table(channel: string, table: string): Promise<Record<string, unknown>> {
    if (VIEWER_TABLES.has(table)) return this.#joined(channel, table, true);
    return copyValue(this.#tables()[channel]?.[table] ?? {});
  }

  async update(channel: string, table: string, key: string, change: (current: unknown) => unknown): Promise<unknown> {
    if (VIEWER_TABLES.has(table)) {
      let stored: unknown;
      this.#updateViewers(channel, table, [key], (_key, current) => (stored = change(current)));
      return stored === undefined ? undefined : copyValue(stored);
    }
    return this.store.update(
      (data) => {
        const tables = (data.extensions[KV_EXTENSION] ??= {}) as Tables;
        const existing = tables[channel]?.[table];
        const present = existing !== undefined && Object.hasOwn(existing, key);
        const next = change(present ? existing[key] : undefined);
        if (next === undefined) {
          if (existing !== undefined) delete existing[key];
          return undefined;
        }
        if (!present) {
          if (existing === undefined) this.#checkTableCap(channel);
          checkKeyCap(tables[channel] ?? {}, 1);
        }
        const fields = ((tables[channel] ??= {})[table] ??= {});
        fields[key] = copyValue(next);
        return copyValue(next);
      },
      { kv: [channel] },
    );
  }

  async updateMany(channel: string, table: string, keys: readonly string[], change: (key: string, current: unknown) => unknown): Promise<void> {
    if (VIEWER_TABLES.has(table)) return this.#updateViewers(channel, table, keys, change);
    this.store.update(
      (data) => {
        const tables = (data.extensions[KV_EXTENSION] ??= {}) as Tables;
        const existing = tables[channel]?.[table];
        const nexts = new Map<string, unknown>();
        let added = 0;
        for (const key of keys) {
          if (nexts.has(key)) continue;
          const present = existing !== undefined && Object.hasOwn(existing, key);
          const next = change(key, present ? existing[key] : undefined);
          nexts.set(key, next);
          if (!present && next !== undefined) added++;
        }
        // The whole batch is refused before anything changes when its new keys break a cap.
        if (added > 0) {
          if (existing === undefined) this.#checkTableCap(channel);
          checkKeyCap(tables[channel] ?? {}, added);
        }
        // A table not there yet, and nothing to add to it: no empty table is made.
        if (existing === undefined && added === 0) return;
        const fields = ((tables[channel] ??= {})[table] ??= {});
        for (const [key, next] of nexts) {
          if (next === undefined) delete fields[key];
          else fields[key] = copyValue(next);
        }
      },
      { kv: [channel] },
    );
  }

  /** `updateMany` of a viewer table: each key changed in the chunk holding it, new keys added to the last chunk. */
  #updateViewers(channel: string, table: string, keys: readonly string[], change: (key: string, current: unknown) => unknown, capped = true): void {
    this.store.update((data, touch) => {
      const existing = this.#chunks(channel, table);
      const index = this.#index(channel, table, existing ?? {});
      const unique = keys.length > 1 ? [...new Set(keys)] : keys;
      // Per key: its next value, and its chunk (undefined: none holds it; null: several do).
      const nexts: unknown[] = new Array(unique.length);
      const places: Array<string | undefined | null> = new Array(unique.length);
      let added = 0;
      for (let i = 0; i < unique.length; i++) {
        const key = unique[i]!;
        const place = existing === undefined ? undefined : index.placeOf(key);
        const current = place === undefined ? undefined : place === null ? combined(existing!, index.holders(existing!, key), key) : existing![place]![key];
        nexts[i] = change(key, current);
        places[i] = place;
        if (place === undefined && nexts[i] !== undefined) added++;
      }
      if (added > 0 && capped) {
        if (existing === undefined) this.#checkTableCap(channel);
        if (index.keys + added > USER_CAPS.pointsViewers) throw new RangeError(`key-value cap reached: at most ${USER_CAPS.pointsViewers} viewers in table ${table} (pointsViewers)`);
      }
      const all = (data.extensions[KV_VIEWERS_EXTENSION] ??= {}) as Record<string, ViewerChunks>;
      const chunks = ((all[channel] ??= {})[table] ??= {});
      const touched = new Set<string>();
      for (let i = 0; i < unique.length; i++) {
        const key = unique[i]!;
        const next = nexts[i];
        const place = places[i];
        if (place === undefined) {
          if (next !== undefined) touched.add(index.add(chunks, key, copyValue(next)));
        } else if (place !== null && next !== undefined) {
          chunks[place]![key] = copyValue(next);
          touched.add(place);
        } else {
          // A removal (a chunk it empties is deleted, and so is its document), or a key several chunks hold.
          const names = index.holders(chunks, key);
          for (const name of names) touched.add(name);
          if (next === undefined) index.remove(chunks, names, key);
          else index.set(chunks, names[0]!, key, copyValue(next), names.slice(1));
        }
      }
      if (index.chunkCount === 0) {
        delete all[channel]![table];
        if (isEmpty(all[channel]!)) delete all[channel];
      }
      const kvChunks: DocumentKey[] = [];
      for (const name of touched) kvChunks.push(viewerChunkKey(channel, table, name));
      touch({ kvChunks });
    });
  }

  async field(channel: string, table: string, key: string): Promise<unknown> {
    if (VIEWER_TABLES.has(table)) {
      const chunks = this.#chunks(channel, table);
      const names = chunks === undefined ? [] : this.#index(channel, table, chunks).holders(chunks, key);
      return names.length === 0 ? undefined : copyValue(combined(chunks!, names, key));
    }
    const fields = this.#tables()[channel]?.[table];
    if (fields === undefined || !Object.hasOwn(fields, key)) return undefined;
    const value = fields[key];
    return copyValue(value);
  }

  /** Throws (naming the cap) when the channel holds as many tables as `kvTables` allows. */
  #checkTableCap(channel: string): void {
    const tables = Object.keys(this.#tables()[channel] ?? {}).filter((table) => !VIEWER_TABLES.has(table)).length;
    let viewerTables = 0;
    for (const table of VIEWER_TABLES) if (this.#chunks(channel, table) !== undefined) viewerTables++;
    if (tables + viewerTables >= USER_CAPS.kvTables) throw new RangeError(`key-value cap reached: at most ${USER_CAPS.kvTables} tables per user (kvTables)`);
  }

  /**
   * Moves viewer tables that earlier versions kept inside the channel's document into chunks, in one
   * write: their keys in their stored order, a key already in a chunk (a move cut short) overwritten.
   */
  #moveInlineViewerTables(): void {
    const inline: Array<[string, string]> = [];
    for (const [channel, tables] of Object.entries(this.#tables())) for (const table of VIEWER_TABLES) if (tables[table] !== undefined) inline.push([channel, table]);
    if (inline.length === 0) return;
    this.store.update((data, touch) => {
      const tables = data.extensions[KV_EXTENSION] as Tables;
      for (const [channel, table] of inline) {
        const fields = tables[channel]![table]!;
        delete tables[channel]![table];
        touch({ kv: [channel] });
        if (Object.keys(fields).length === 0) continue;
        // Within this update: the chunks are written with the channel's document, in one write. A
        // table over a cap (a store of an earlier version) moves whole: cap-breaches.ts reports it.
        this.#updateViewers(channel, table, Object.keys(fields), (key) => fields[key], false);
      }
    });
  }
}

function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}

/** Throws (naming the cap) when adding `added` keys to the channel's ordinary tables would break `kvKeys`. */
function checkKeyCap(channelTables: Record<string, Record<string, unknown>>, added: number): void {
  let keys = 0;
  for (const [name, fields] of Object.entries(channelTables)) if (!VIEWER_TABLES.has(name)) keys += Object.keys(fields).length;
  if (keys + added > USER_CAPS.kvKeys) throw new RangeError(`key-value cap reached: at most ${USER_CAPS.kvKeys} keys per user over all tables (kvKeys)`);
}
