/** Keys per chunk document of a viewer table (about 60 KB of names, 25 KB of balances). */
export const VIEWER_CHUNK_KEYS = 1_000;

/** A viewer table's chunks in memory: chunk number -> key -> value. */
export type Chunks = Record<string, Record<string, unknown>>;

const byNumber = (a: string, b: string) => Number(a) - Number(b);

/**
 * A key's value over the chunks holding it: one chunk's value; when two nodes placed the same new
 * key in different chunks at once, numbers add up (as concurrent changes of a key-value number do,
 * merge.ts) and any other value is the highest chunk's.
 */
export function combined(chunks: Chunks, names: readonly string[], key: string): unknown {
  const values = names.map((name) => chunks[name]![key]);
  if (values.length === 1) return values[0];
  if (values.every((v) => typeof v === "number")) return (values as number[]).reduce((a, b) => a + b, 0);
  return values[values.length - 1];
}

/**
 * Where each key of one viewer table lives, and how full each chunk is: a points tick looks up 600
 * keys among 100,000, which took 6-11 ms scanning 100 chunks per key and 13-19 ms counting their
 * keys for the cap. Built from the chunks on first use, kept up to date by the changes made through
 * it, and built again when a chunk was replaced whole (a load, another node's change: a new object).
 * A chunk must not be changed in place other than through it.
 */
export class ChunkIndex {
  /** The chunk objects indexed, by name. */
  readonly #chunks = new Map<string, object>();
  readonly #sizes = new Map<string, number>();
  /** Key -> the lowest chunk holding it. */
  readonly #place = new Map<string, string>();
  /** Keys held by more than one chunk (two nodes placed a new key at once): looked up by scanning. */
  readonly #doubled = new Set<string>();
  #last = -1;
  /** The table's chunks object and the data's chunk version (`viewerChunkVersion`) last checked. */
  #checked: Chunks | null = null;
  #version = -1;

  /**
   * Brings the index in line with `chunks` (built again when a chunk object changed). Checking every
   * chunk costs a walk over the chunk names, so it is skipped while `chunks` and `version` (bumped
   * whenever a chunk is replaced from outside: a load, another node's change) are as last checked.
   */
  sync(chunks: Chunks, version: number): this {
    if (chunks === this.#checked && version === this.#version) return this;
    this.#checked = chunks;
    this.#version = version;
    let count = 0;
    for (const name in chunks) {
      if (this.#chunks.get(name) !== chunks[name]) return this.#build(chunks);
      count++;
    }
    return count === this.#chunks.size ? this : this.#build(chunks);
  }

  #build(chunks: Chunks): this {
    this.#chunks.clear();
    this.#sizes.clear();
    this.#place.clear();
    this.#doubled.clear();
    this.#last = -1;
    for (const name of Object.keys(chunks).sort(byNumber)) {
      const chunk = chunks[name]!;
      let size = 0;
      for (const key in chunk) {
        size++;
        if (this.#place.has(key)) this.#doubled.add(key);
        else this.#place.set(key, name);
      }
      this.#chunks.set(name, chunk);
      this.#sizes.set(name, size);
      this.#last = Math.max(this.#last, Number(name));
    }
    return this;
  }

  /** Chunks of the table. */
  get chunkCount(): number {
    return this.#chunks.size;
  }

  /** Distinct keys of the table. */
  get keys(): number {
    return this.#place.size;
  }

  /** The chunk holding `key`: undefined when none, null when several do (see `holders`). */
  placeOf(key: string): string | undefined | null {
    return this.#doubled.has(key) ? null : this.#place.get(key);
  }

  /** The chunks holding `key`, lowest first (empty when none). */
  holders(chunks: Chunks, key: string): string[] {
    if (this.#doubled.has(key)) return Object.keys(chunks).filter((name) => Object.hasOwn(chunks[name]!, key)).sort(byNumber);
    const at = this.#place.get(key);
    return at === undefined ? [] : [at];
  }

  /** Adds a key no chunk holds to the last chunk while it has room, else to a new one; returns the chunk's name. */
  add(chunks: Chunks, key: string, value: unknown): string {
    if (this.#last < 0 || (this.#sizes.get(String(this.#last)) ?? 0) >= VIEWER_CHUNK_KEYS) this.#last++;
    const name = String(this.#last);
    // A new chunk, or the last one again after it was emptied and deleted.
    if (!this.#chunks.has(name)) {
      chunks[name] = {};
      this.#chunks.set(name, chunks[name]);
      this.#sizes.set(name, 0);
    }
    chunks[name]![key] = value;
    this.#sizes.set(name, this.#sizes.get(name)! + 1);
    this.#place.set(key, name);
    return name;
  }

  /** Sets `key` in chunk `name`, the one chunk left holding it: removed from `others` (the rest of its holders). */
  set(chunks: Chunks, name: string, key: string, value: unknown, others: readonly string[]): void {
    chunks[name]![key] = value;
    for (const other of others) this.#delete(chunks, other, key);
    this.#doubled.delete(key);
    this.#place.set(key, name);
  }

  /** Removes `key` from every chunk in `names`; a chunk left empty is deleted. */
  remove(chunks: Chunks, names: readonly string[], key: string): void {
    for (const name of names) this.#delete(chunks, name, key);
    this.#doubled.delete(key);
    this.#place.delete(key);
  }

  #delete(chunks: Chunks, name: string, key: string): void {
    delete chunks[name]![key];
    const size = this.#sizes.get(name)! - 1;
    this.#sizes.set(name, size);
    if (size > 0) return;
    delete chunks[name];
    this.#chunks.delete(name);
    this.#sizes.delete(name);
  }
}
