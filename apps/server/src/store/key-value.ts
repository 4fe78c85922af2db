import type { KeyValueStore } from "@ovation/core";
import { KV_EXTENSION } from "./partitions.js";
import type { Store } from "./store.js";
import { USER_CAPS } from "./user-caps.js";

type Tables = Record<string, Record<string, Record<string, unknown>>>;

/**
 * The command templates' per-channel key-value store (`db`, `inc`, `dec`, `set`, viewers' points),
 * kept under `extensions.kv` and written as one document per channel. Updates are synchronous on
 * the data, so each field changes atomically. A new table or key beyond the user's caps
 * (`USER_CAPS.kvTables`, `USER_CAPS.kvKeys`) is refused with an error naming the cap, before
 * anything changes.
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
    return structuredClone(this.#tables()[channel]?.[table] ?? {});
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
        if (!present) checkCaps(tables[channel] ?? {}, existing === undefined);
        const fields = ((tables[channel] ??= {})[table] ??= {});
        fields[key] = structuredClone(next);
        return structuredClone(next);
      },
      { kv: [channel] },
    );
  }
}

/** Throws (naming the cap) when adding a key, in a new table when `newTable`, would break a cap. */
function checkCaps(channelTables: Record<string, Record<string, unknown>>, newTable: boolean): void {
  const tables = Object.values(channelTables);
  if (newTable && tables.length >= USER_CAPS.kvTables) {
    throw new RangeError(`key-value cap reached: at most ${USER_CAPS.kvTables} tables per user (kvTables)`);
  }
  let keys = 0;
  for (const fields of tables) keys += Object.keys(fields).length;
  if (keys >= USER_CAPS.kvKeys) throw new RangeError(`key-value cap reached: at most ${USER_CAPS.kvKeys} keys per user over all tables (kvKeys)`);
}
