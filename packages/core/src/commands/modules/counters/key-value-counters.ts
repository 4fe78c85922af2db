import { storedNumber, type KeyValueStore } from "../../key-value-store.js";

/** The key-value table holding counter values: what templates reach with `db('counters')`, `inc`, `dec`, `set`. */
export const COUNTERS_TABLE = "counters";
/** The key-value table holding each counter's `keyword` and `active`, keyed by counter name. */
export const COUNTER_SETTINGS_TABLE = "counter_settings";
/** Largest counter value, either way (2^53 - 1): past it a number can no longer count by one. */
const COUNTER_LIMIT = Number.MAX_SAFE_INTEGER;

/** A counter as the API shows it (docs/counters.md). */
export interface Counter {
  name: string;
  /** `!<keyword>` in chat shows the counter; `!<keyword> +` / `-` change it (moderators). */
  keyword: string | null;
  value: number | null;
  active: boolean;
}

/** Thrown by {@link KeyValueCounters.change} when the result would pass ±(2^53 - 1); nothing changed. */
export class CounterRangeError extends Error {
  override readonly name = "CounterRangeError";

  constructor(
    readonly counter: string,
    readonly result: number,
  ) {
    super(`The counter ${counter} would pass ${result < 0 ? "-" : ""}2^53 - 1 (${COUNTER_LIMIT}); it is unchanged.`);
  }
}

/** How a counter is changed (`POST /v1/bots/{bot}/counters/values`, `!<keyword> +`). */
export type CounterOperation = "increment" | "decrement" | "set";

interface CounterSettings {
  keyword: string | null;
  active: boolean;
}

function settingsOf(stored: unknown): CounterSettings {
  const record = stored !== null && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  return {
    keyword: typeof record["keyword"] === "string" ? record["keyword"] : null,
    active: record["active"] !== false,
  };
}

/** A stored value as a counter value: numbers as they are, null when unset, anything else read as a number. */
function valueOf(stored: unknown): number | null {
  if (stored === undefined || stored === null) return null;
  return typeof stored === "number" ? stored : storedNumber(stored);
}

/**
 * The current value of counter `name` in the channel's {@link COUNTERS_TABLE} (0 when unset; a
 * `{value}` object written by a template counts by its `value`). What counter goal bars show.
 */
export async function counterValue(store: KeyValueStore, channel: string, name: string): Promise<number> {
  const value = (await store.table(channel, COUNTERS_TABLE))[name];
  if (value !== null && typeof value === "object" && "value" in value) return storedNumber((value as { value: unknown }).value);
  return storedNumber(value);
}

/**
 * The counters of a channel's bot, kept in the same per-channel key-value store the command
 * templates use: values in {@link COUNTERS_TABLE}, so `db('counters').deaths` and the API read the
 * same number, and settings in {@link COUNTER_SETTINGS_TABLE}. A key a template wrote to the
 * counters table is a counter too (no keyword, active).
 */
export class KeyValueCounters {
  constructor(private readonly store: KeyValueStore) {}

  /** Every counter of the channel, by name. */
  async list(channel: string): Promise<Counter[]> {
    const [values, settings] = await Promise.all([this.store.table(channel, COUNTERS_TABLE), this.store.table(channel, COUNTER_SETTINGS_TABLE)]);
    const names = [...new Set([...Object.keys(settings), ...Object.keys(values)])].sort();
    return names.map((name) => ({ name, ...settingsOf(settings[name]), value: valueOf(values[name]) }));
  }

  /** One counter, or null. */
  async get(channel: string, name: string): Promise<Counter | null> {
    return (await this.list(channel)).find((c) => c.name === name) ?? null;
  }

  /** The active counter whose keyword is `keyword` (lowercase), or null. */
  async byKeyword(channel: string, keyword: string): Promise<Counter | null> {
    return (await this.list(channel)).find((c) => c.active && c.keyword === keyword) ?? null;
  }

  /** Creates or replaces a counter's settings and value. */
  async put(channel: string, counter: Counter): Promise<Counter> {
    await this.store.update(channel, COUNTER_SETTINGS_TABLE, counter.name, () => ({ keyword: counter.keyword, active: counter.active }));
    await this.store.update(channel, COUNTERS_TABLE, counter.name, () => (counter.value === null ? undefined : counter.value));
    return counter;
  }

  /**
   * Applies an operation atomically on the stored value; resolves to the counter after it (null
   * when there is no such counter). An operation whose result would pass ±(2^53 - 1) changes
   * nothing and throws {@link CounterRangeError}.
   */
  async change(channel: string, name: string, operation: CounterOperation, value: number | null): Promise<Counter | null> {
    const existing = await this.get(channel, name);
    if (!existing) return null;
    let refused: number | null = null;
    const stored = await this.store.update(channel, COUNTERS_TABLE, name, (current) => {
      if (operation === "set") return value === null ? undefined : value;
      const step = value ?? 1;
      const next = storedNumber(current) + (operation === "increment" ? step : -step);
      if (Math.abs(next) <= COUNTER_LIMIT) return next;
      refused = next;
      return current;
    });
    if (refused !== null) throw new CounterRangeError(name, refused);
    return { ...existing, value: valueOf(stored) };
  }

  /** Deletes counters (settings and value); resolves to the names that existed. */
  async remove(channel: string, names: readonly string[]): Promise<string[]> {
    const existing = new Set((await this.list(channel)).map((c) => c.name));
    const removed = names.filter((name) => existing.has(name));
    for (const name of removed) {
      await this.store.update(channel, COUNTER_SETTINGS_TABLE, name, () => undefined);
      await this.store.update(channel, COUNTERS_TABLE, name, () => undefined);
    }
    return removed;
  }
}
