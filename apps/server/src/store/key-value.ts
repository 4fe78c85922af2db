import type { KeyValueStore } from "@ovation/core";
import { KV_EXTENSION } from "./partitions.js";
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
 * The command templates' per-channel key-value store (`db`, `inc`, `dec`, `set`, viewers' points),
 * kept under `extensions.kv` and written as one document per channel. Updates are synchronous on
 * the data, so each field changes atomically. A new table or key beyond the user's caps
 * (`USER_CAPS.kvTables`, `USER_CAPS.kvKeys`) is refused with an error naming the cap, before
 * anything changes. The viewers' points tables (`points`, `points_viewers`: one key per viewer) have a
 * cap of their own per table (`USER_CAPS.pointsViewers`) instead of counting against `kvKeys`.
 */
export class StoreKeyValueStore implements KeyValueStore {
  constructor(private readonly store: Store) {}

  #tables(): Tables {
    return (this.store.data.extensions[KV_EXTENSION] as Tables | undefined) ?? {};
  }

  /** Every table of a channel as stored (read-only use: cap reports). */
  channelTables(channel: string): Record<string, Record<string, unknown>> {
    return this.#tables()[channel] ?? {};
  }

  async table(channel: string, table: string): Promise<Record<string, unknown>> {
    return copyValue(this.#tables()[channel]?.[table] ?? {});
  }

  async update(channel: string, table: string, key: string, change: (current: unknown) => unknown): Promise<unknown> {
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
        if (!present) checkCaps(tables[channel] ?? {}, table, existing === undefined, 1);
        const fields = ((tables[channel] ??= {})[table] ??= {});
        fields[key] = copyValue(next);
        return copyValue(next);
      },
      { kv: [channel] },
    );
  }

  async updateMany(channel: string, table: string, keys: readonly string[], change: (key: string, current: unknown) => unknown): Promise<void> {
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
        if (added > 0) checkCaps(tables[channel] ?? {}, table, existing === undefined, added);
        const fields = ((tables[channel] ??= {})[table] ??= {});
        for (const [key, next] of nexts) {
          if (next === undefined) delete fields[key];
          else fields[key] = copyValue(next);
        }
      },
      { kv: [channel] },
    );
  }

  async field(channel: string, table: string, key: string): Promise<unknown> {
    const fields = this.#tables()[channel]?.[table];
    if (fields === undefined || !Object.hasOwn(fields, key)) return undefined;
    const value = fields[key];
    return copyValue(value);
  }
}

/** Throws (naming the cap) when adding `added` keys to `table`, a new table when `newTable`, would break a cap. */
function checkCaps(channelTables: Record<string, Record<string, unknown>>, table: string, newTable: boolean, added: number): void {
  if (newTable && Object.keys(channelTables).length >= USER_CAPS.kvTables) {
    throw new RangeError(`key-value cap reached: at most ${USER_CAPS.kvTables} tables per user (kvTables)`);
  }
  if (VIEWER_TABLES.has(table)) {
    const keys = Object.keys(channelTables[table] ?? {}).length;
    if (keys + added > USER_CAPS.pointsViewers) throw new RangeError(`key-value cap reached: at most ${USER_CAPS.pointsViewers} viewers in table ${table} (pointsViewers)`);
    return;
  }
  let keys = 0;
  for (const [name, fields] of Object.entries(channelTables)) if (!VIEWER_TABLES.has(name)) keys += Object.keys(fields).length;
  if (keys + added > USER_CAPS.kvKeys) throw new RangeError(`key-value cap reached: at most ${USER_CAPS.kvKeys} keys per user over all tables (kvKeys)`);
}
