/**
 * The per-channel key-value store the host implements (lowdb, Redis, SQL...): tables of fields per
 * channel. It backs the template functions `db`, `inc`, `dec`, `set` and the points that pay a
 * command's `price` (table {@link POINTS_TABLE}, key = the viewer's platform user id).
 */
export interface KeyValueStore {
  /** Every field of `table` in `channel` (an empty object when the table does not exist). */
  table(channel: string, table: string): Promise<Record<string, unknown>>;
  /**
   * Replaces one field with what `change` returns for its current value (`undefined` when absent),
   * atomically with respect to other updates of the same field; resolves to the stored value.
   * `change` is synchronous and may be called once only.
   */
  update(channel: string, table: string, key: string, change: (current: unknown) => unknown): Promise<unknown>;
  /**
   * Optional batch of {@link update}: replaces each of `keys` with what `change` returns for it, in one
   * write (each field atomically, as `update`); returning `undefined` removes the field. A host that
   * has it saves a points tick for thousands of viewers as one write instead of one per viewer.
   * Without it {@link updateFields} falls back to one `update` per key.
   */
  updateMany?(channel: string, table: string, keys: readonly string[], change: (key: string, current: unknown) => unknown): Promise<void>;
  /** Optional read of one field (`undefined` when absent); without it {@link readField} reads the table. */
  field?(channel: string, table: string, key: string): Promise<unknown>;
}

/**
 * Changes each of `keys` in one batched write when the store has {@link KeyValueStore.updateMany},
 * else one awaited {@link KeyValueStore.update} per key. Resolves to the number of store writes made.
 */
export async function updateFields(
  store: KeyValueStore,
  channel: string,
  table: string,
  keys: readonly string[],
  change: (key: string, current: unknown) => unknown,
): Promise<number> {
  if (keys.length === 0) return 0;
  if (store.updateMany !== undefined) {
    await store.updateMany(channel, table, keys, change);
    return 1;
  }
  for (const key of keys) await store.update(channel, table, key, (current) => change(key, current));
  return keys.length;
}

/** One field of a table (`undefined` when absent), through {@link KeyValueStore.field} when the store has it. */
export async function readField(store: KeyValueStore, channel: string, table: string, key: string): Promise<unknown> {
  if (store.field !== undefined) return store.field(channel, table, key);
  const fields = await store.table(channel, table);
  return Object.hasOwn(fields, key) ? fields[key] : undefined;
}

/** The table holding each viewer's points: key = the viewer's `platform_id`, value = an integer. */
export const POINTS_TABLE = "points";

/** A {@link KeyValueStore} in memory (tests, embedding, single-process bots). */
export class InMemoryKeyValueStore implements KeyValueStore {
  readonly #channels = new Map<string, Map<string, Map<string, unknown>>>();

  async table(channel: string, table: string): Promise<Record<string, unknown>> {
    const fields = this.#channels.get(channel)?.get(table);
    return fields === undefined ? {} : Object.fromEntries(fields);
  }

  async update(channel: string, table: string, key: string, change: (current: unknown) => unknown): Promise<unknown> {
    return this.#change(this.#fields(channel, table), key, change);
  }

  async updateMany(channel: string, table: string, keys: readonly string[], change: (key: string, current: unknown) => unknown): Promise<void> {
    const fields = this.#fields(channel, table);
    for (const key of keys) this.#change(fields, key, (current) => change(key, current));
  }

  async field(channel: string, table: string, key: string): Promise<unknown> {
    return this.#channels.get(channel)?.get(table)?.get(key);
  }

  #fields(channel: string, table: string): Map<string, unknown> {
    let tables = this.#channels.get(channel);
    if (tables === undefined) {
      tables = new Map();
      this.#channels.set(channel, tables);
    }
    let fields = tables.get(table);
    if (fields === undefined) {
      fields = new Map();
      tables.set(table, fields);
    }
    return fields;
  }

  #change(fields: Map<string, unknown>, key: string, change: (current: unknown) => unknown): unknown {
    const next = change(fields.get(key));
    if (next === undefined) fields.delete(key);
    else fields.set(key, next);
    return next;
  }
}

/** A number from a stored value: numbers as they are, numeric strings parsed, anything else 0. */
export function storedNumber(value: unknown): number {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return 0;
}

/**
 * Takes `amount` points from `user` in `channel` when the balance covers it.
 * Resolves to whether it was taken and the balance after.
 */
export async function debitPoints(store: KeyValueStore, channel: string, user: string, amount: number): Promise<{ ok: boolean; balance: number }> {
  let ok = false;
  let balance = 0;
  await store.update(channel, POINTS_TABLE, user, (current) => {
    balance = storedNumber(current);
    if (balance < amount) return current;
    ok = true;
    balance -= amount;
    return balance;
  });
  return { ok, balance };
}

/**
 * A view of a store for dry runs: reads see the real data and this run's own writes; writes stay
 * in the overlay, so a test of a command never changes stored data.
 */
export class OverlayKeyValueStore implements KeyValueStore {
  readonly #base: KeyValueStore;
  readonly #writes = new Map<string, unknown>();

  constructor(base: KeyValueStore) {
    this.#base = base;
  }

  async table(channel: string, table: string): Promise<Record<string, unknown>> {
    const fields = await this.#base.table(channel, table);
    const prefix = `${channel}\u0000${table}\u0000`;
    for (const [id, value] of this.#writes) {
      if (id.startsWith(prefix)) Object.defineProperty(fields, id.slice(prefix.length), { value, enumerable: true, writable: true, configurable: true });
    }
    return fields;
  }

  async update(channel: string, table: string, key: string, change: (current: unknown) => unknown): Promise<unknown> {
    const id = `${channel}\u0000${table}\u0000${key}`;
    const current = this.#writes.has(id) ? this.#writes.get(id) : (await this.#base.table(channel, table))[key];
    const next = change(current);
    this.#writes.set(id, next);
    return next;
  }
}
