import type { KeyValueStore } from "@ovation/core";
import { KV_EXTENSION } from "./partitions.js";
import type { Store } from "./store.js";

type Tables = Record<string, Record<string, Record<string, unknown>>>;

/**
 * The command templates' per-channel key-value store (`db`, `inc`, `dec`, `set`, viewers' points),
 * kept under `extensions.kv` and written as one document per channel. Updates are synchronous on
 * the data, so each field changes atomically.
 */
export class StoreKeyValueStore implements KeyValueStore {
  constructor(private readonly store: Store) {}

  #tables(): Tables {
    return (this.store.data.extensions[KV_EXTENSION] as Tables | undefined) ?? {};
  }

  async table(channel: string, table: string): Promise<Record<string, unknown>> {
    return structuredClone(this.#tables()[channel]?.[table] ?? {});
  }

  async update(channel: string, table: string, key: string, change: (current: unknown) => unknown): Promise<unknown> {
    return this.store.update(
      (data) => {
        const tables = (data.extensions[KV_EXTENSION] ??= {}) as Tables;
        const fields = ((tables[channel] ??= {})[table] ??= {});
        const next = change(Object.hasOwn(fields, key) ? fields[key] : undefined);
        if (next === undefined) delete fields[key];
        else fields[key] = structuredClone(next);
        return structuredClone(next);
      },
      { kv: [channel] },
    );
  }
}
