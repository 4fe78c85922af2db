import { KeyValueCounters } from "@ovation/core";
import type { Counter, CounterOperation, KeyValueStore } from "@ovation/core";

// The counters' model lives in core beside the custom commands that answer their keywords.
export { COUNTERS_TABLE, COUNTER_SETTINGS_TABLE, CounterRangeError } from "@ovation/core";
export type { Counter, CounterOperation } from "@ovation/core";

/**
 * The counters of a user's bot (channel = the user's id) over the templates' key-value store: the
 * core's {@link KeyValueCounters} by user id (docs/counters.md). Other modules (goal bars, timers)
 * read counters through this service.
 */
export class CountersService {
  readonly #counters: KeyValueCounters;

  constructor(kv: KeyValueStore) {
    this.#counters = new KeyValueCounters(kv);
  }

  /** Every counter of the user, by name. */
  list(userId: number): Promise<Counter[]> {
    return this.#counters.list(String(userId));
  }

  /** One counter, or null. */
  get(userId: number, name: string): Promise<Counter | null> {
    return this.#counters.get(String(userId), name);
  }

  /** The active counter whose keyword is `keyword` (lowercase), or null. */
  byKeyword(userId: number, keyword: string): Promise<Counter | null> {
    return this.#counters.byKeyword(String(userId), keyword);
  }

  /** Creates or replaces a counter's settings and value. */
  put(userId: number, counter: Counter): Promise<Counter> {
    return this.#counters.put(String(userId), counter);
  }

  /** Applies an operation atomically; throws `CounterRangeError` (nothing changed) past ±(2^53 - 1). */
  change(userId: number, name: string, operation: CounterOperation, value: number | null): Promise<Counter | null> {
    return this.#counters.change(String(userId), name, operation, value);
  }

  /** Deletes counters (settings and value); resolves to the names that existed. */
  remove(userId: number, names: readonly string[]): Promise<string[]> {
    return this.#counters.remove(String(userId), names);
  }
}
