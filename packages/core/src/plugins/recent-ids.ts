/**
 * A bounded memory of recently seen ids, oldest forgotten first. Platforms deliver at least once
 * (EventSub resends, IRC replays across reconnects), so every id is checked here before it counts.
 */
export class RecentIds {
  readonly #capacity: number;
  readonly #ids = new Set<string>();

  /** @param capacity how many ids to remember (at least 1). */
  constructor(capacity = 10_000) {
    this.#capacity = Math.max(1, Math.floor(capacity));
  }

  /** Records `id`; true when it was new, false when it was seen already. */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > this.#capacity) {
      // Sets iterate in insertion order: the first key is the oldest.
      const oldest = this.#ids.values().next();
      if (!oldest.done) this.#ids.delete(oldest.value);
    }
    return true;
  }

  /** True when `id` is remembered. */
  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.#ids.size;
  }
}
