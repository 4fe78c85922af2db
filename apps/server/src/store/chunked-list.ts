import type { Store } from "./store.js";

/** Items per chunk document of a {@link ChunkedList}: about 10 KB of giveaway entries. */
export const CHUNK_ITEMS = 100;

/**
 * A list that only grows until it is cleared (a giveaway's entries...), kept as a run of extension
 * documents of at most {@link CHUNK_ITEMS} items each, named by `keyOf(0)`, `keyOf(1)`... Appending
 * rewrites only the last chunk, so an append costs the same with 10 items or 100,000, in the
 * embedded files and in PostgreSQL alike (each chunk is a document of its own). The last chunk is
 * found again when another node appended or cleared meanwhile.
 */
export class ChunkedList<T> {
  readonly #store: Store;
  readonly #keyOf: (chunk: number) => string;
  /** The index of the last chunk, as last seen. */
  #last = 0;

  constructor(store: Store, keyOf: (chunk: number) => string) {
    this.#store = store;
    this.#keyOf = keyOf;
  }

  #chunk(index: number): T[] | undefined {
    return this.#store.data.extensions[this.#keyOf(index)] as T[] | undefined;
  }

  /** Finds the last chunk: from the one last seen (from the first if that one is gone), onwards. */
  #locate(): number {
    if (this.#last > 0 && this.#chunk(this.#last) === undefined) this.#last = 0;
    while (this.#chunk(this.#last + 1) !== undefined) this.#last++;
    return this.#last;
  }

  /** Appends one item (a copy), writing only the last chunk (or a new one when it is full). */
  append(item: T): void {
    let index = this.#locate();
    if ((this.#chunk(index)?.length ?? 0) >= CHUNK_ITEMS) index = ++this.#last;
    const key = this.#keyOf(index);
    this.#store.update(
      (data) => {
        const chunk = (data.extensions[key] ??= []) as T[];
        chunk.push(structuredClone(item));
      },
      { extensions: [key] },
    );
  }

  /** Every item, in the order appended (a copy). */
  read(): T[] {
    const items: T[] = [];
    for (let index = 0; ; index++) {
      const chunk = this.#chunk(index);
      if (chunk === undefined) break;
      items.push(...structuredClone(chunk));
    }
    return items;
  }

  /** The items from position `start` on, in order (a copy): whole chunks before it are skipped unread. */
  readFrom(start: number): T[] {
    const items: T[] = [];
    let position = 0;
    for (let index = 0; ; index++) {
      const chunk = this.#chunk(index);
      if (chunk === undefined) break;
      if (position + chunk.length > start) items.push(...structuredClone(chunk.slice(Math.max(0, start - position))));
      position += chunk.length;
    }
    return items;
  }

  /** How many items the list holds. */
  get length(): number {
    let count = 0;
    for (let index = 0; ; index++) {
      const chunk = this.#chunk(index);
      if (chunk === undefined) return count;
      count += chunk.length;
    }
  }

  /** Deletes every chunk. */
  clear(): void {
    const keys: string[] = [];
    for (let index = 0; this.#chunk(index) !== undefined; index++) keys.push(this.#keyOf(index));
    this.#last = 0;
    if (keys.length === 0) return;
    this.#store.update(
      (data) => {
        for (const key of keys) delete data.extensions[key];
      },
      { extensions: keys },
    );
  }
}
