import type { KeyValueStore } from "@ovation/core";
import type { Store } from "./store.js";

type Tables = Record<string, Record<string, Record<string, unknown>>>;

/**
 * The command templates' per-channel key-value store (`db`, `inc`, `dec`, `set`, viewers' points),
 * kept in the store file under `extensions.kv`. Updates are synchronous on the document, so each
 * field changes atomically.
 */
export class StoreKeyValueStore implements KeyValueStore {
  readonly #kv;

  constructor(store: Store) {
    this.#kv = store.extension<Tables>("kv", () => ({}));
  }

  async table(channel: string, table: string): Promise<Record<string, unknown>> {
    return structuredClone(this.#kv.read()[channel]?.[table] ?? {});
  }

  async update(channel: string, table: string, key: string, change: (current: unknown) => unknown): Promise<unknown> {
    return this.#kv.update((tables) => {
      const fields = ((tables[channel] ??= {})[table] ??= {});
      const next = change(Object.hasOwn(fields, key) ? fields[key] : undefined);
      if (next === undefined) delete fields[key];
      else fields[key] = structuredClone(next);
      return structuredClone(next);
    });
  }
}
