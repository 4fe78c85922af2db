import { storedNumber } from "@ovation/core";
import { COUNTER_MAX_VALUE } from "@ovation/core/api";
import type { KeyValueStore } from "@ovation/core";

/** The key-value table holding counter values: what templates reach with `db('counters')`, `inc`, `dec`, `set`. */
export const COUNTERS_TABLE = "counters";
/** The key-value table holding each counter's `keyword` and `active`, keyed by counter name. */
export const COUNTER_SETTINGS_TABLE = "counter_settings";

/** A counter as the API shows it (docs/counters.md). */
export interface Counter {
  name: string;
  /** `!<keyword>` in chat shows the counter; `!<keyword> +` / `-` change it (moderators). */
  keyword: string | null;
  value: number | null;
  active: boolean;
}

/** Thrown by {@link CountersService.change} when the result would pass ±(2^53 - 1); nothing changed. */
export class CounterRangeError extends Error {
  override readonly name = "CounterRangeError";

  constructor(
    readonly counter: string,
    readonly result: number,
  ) {
    super(`The counter ${counter} would pass ${result < 0 ? "-" : ""}2^53 - 1 (${COUNTER_MAX_VALUE}); it is unchanged.`);
  }
}

/** How `POST /v1/bots/{bot}/counters/values` changes a counter. */
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
 * The counters of a user's bot, kept in the same per-channel key-value store the command templates
 * use (channel = the user's id): values in {@link COUNTERS_TABLE}, so `db('counters').deaths` and
 * the API read the same number, and settings in {@link COUNTER_SETTINGS_TABLE}. A key a template
 * wrote to the counters table is a counter too (no keyword, active). Other modules (goal bars,
 * timers) read counters through this service.
 */
export class CountersService {
  constructor(private readonly kv: KeyValueStore) {}

  /** Every counter of the user, by name. */
  async list(userId: number): Promise<Counter[]> {
    const channel = String(userId);
    const [values, settings] = await Promise.all([this.kv.table(channel, COUNTERS_TABLE), this.kv.table(channel, COUNTER_SETTINGS_TABLE)]);
    const names = [...new Set([...Object.keys(settings), ...Object.keys(values)])].sort();
    return names.map((name) => ({ name, ...settingsOf(settings[name]), value: valueOf(values[name]) }));
  }

  /** One counter, or null. */
  async get(userId: number, name: string): Promise<Counter | null> {
    return (await this.list(userId)).find((c) => c.name === name) ?? null;
  }

  /** The active counter whose keyword is `keyword` (lowercase), or null. */
  async byKeyword(userId: number, keyword: string): Promise<Counter | null> {
    return (await this.list(userId)).find((c) => c.active && c.keyword === keyword) ?? null;
  }

  /** Creates or replaces a counter's settings and value. */
  async put(userId: number, counter: Counter): Promise<Counter> {
    const channel = String(userId);
    await this.kv.update(channel, COUNTER_SETTINGS_TABLE, counter.name, () => ({ keyword: counter.keyword, active: counter.active }));
    await this.kv.update(channel, COUNTERS_TABLE, counter.name, () => (counter.value === null ? undefined : counter.value));
    return counter;
  }

  /**
   * Applies an operation atomically on the stored value; resolves to the counter after it (null
   * when there is no such counter). An operation whose result would pass ±(2^53 - 1) changes
   * nothing and throws {@link CounterRangeError}.
   */
  async change(userId: number, name: string, operation: CounterOperation, value: number | null): Promise<Counter | null> {
    const existing = await this.get(userId, name);
    if (!existing) return null;
    let refused: number | null = null;
    const stored = await this.kv.update(String(userId), COUNTERS_TABLE, name, (current) => {
      if (operation === "set") return value === null ? undefined : value;
      const step = value ?? 1;
      const next = storedNumber(current) + (operation === "increment" ? step : -step);
      if (Math.abs(next) <= COUNTER_MAX_VALUE) return next;
      refused = next;
      return current;
    });
    if (refused !== null) throw new CounterRangeError(name, refused);
    return { ...existing, value: valueOf(stored) };
  }

  /** Deletes counters (settings and value); resolves to the names that existed. */
  async remove(userId: number, names: readonly string[]): Promise<string[]> {
    const channel = String(userId);
    const existing = new Set((await this.list(userId)).map((c) => c.name));
    const removed = names.filter((name) => existing.has(name));
    for (const name of removed) {
      await this.kv.update(channel, COUNTER_SETTINGS_TABLE, name, () => undefined);
      await this.kv.update(channel, COUNTERS_TABLE, name, () => undefined);
    }
    return removed;
  }
}
