/**
 * A map that forgets its oldest entry beyond `capacity`. The host and the sandbox process each keep
 * one with the same capacity and see the same operations in the same order, so the host always
 * knows exactly which compiled templates the sandbox process still holds.
 */
export class InsertionCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  /** The value of `key`, if held. */
  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Whether `key` is held. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Adds `key` as the newest entry (moving it if present) and evicts the oldest beyond capacity. */
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
  }

  /** True when adding `fresh` new keys would evict an entry. */
  wouldEvict(fresh: number): boolean {
    return this.entries.size + fresh > this.capacity;
  }

  /** Number of entries held. */
  get size(): number {
    return this.entries.size;
  }
}
