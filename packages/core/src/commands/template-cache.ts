/** Bounds of the template `cache()` function. */
export const TEMPLATE_CACHE_LIMITS = {
  /** Default lifetime of `cache(key, value)`: one day. */
  defaultTtlSeconds: 86_400,
  /** Longest lifetime accepted: seven days. */
  maxTtlSeconds: 7 * 86_400,
  /** Entries kept per channel; the oldest written goes first. */
  entriesPerChannel: 1_000,
} as const;

/**
 * Reads and writes of the `cache()` template function, per channel. The default is
 * {@link TemplateCache} (this process's memory); a server running several nodes passes a shared one
 * (Redis), whose calls return promises. Values are JSON-safe (the template functions check them).
 */
export interface TemplateCacheStore {
  /** The value, or null when absent or expired (or a promise of it). */
  get(channel: string, key: string): unknown;
  /** Stores a value for `ttlSeconds`. */
  set(channel: string, key: string, value: unknown, ttlSeconds: number): void | Promise<void>;
}

interface Entry {
  value: unknown;
  expiresAt: number;
}

/** The in-process cache behind `cache()`: per channel, with expiry and a size bound; clock injectable. */
export class TemplateCache implements TemplateCacheStore {
  readonly #channels = new Map<string, Map<string, Entry>>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** The value, or null when absent or expired. */
  get(channel: string, key: string): unknown {
    const entries = this.#channels.get(channel);
    const entry = entries?.get(key);
    if (entry === undefined) return null;
    if (entry.expiresAt <= this.#now()) {
      entries?.delete(key);
      return null;
    }
    return entry.value;
  }

  set(channel: string, key: string, value: unknown, ttlSeconds: number): void {
    let entries = this.#channels.get(channel);
    if (entries === undefined) {
      entries = new Map();
      this.#channels.set(channel, entries);
    }
    entries.delete(key);
    entries.set(key, { value, expiresAt: this.#now() + ttlSeconds * 1000 });
    if (entries.size > TEMPLATE_CACHE_LIMITS.entriesPerChannel) {
      const oldest = entries.keys().next();
      if (oldest.done !== true) entries.delete(oldest.value);
    }
  }
}

/** A cache view for dry runs: reads fall through to the real cache, writes stay here. */
export class OverlayTemplateCache implements TemplateCacheStore {
  readonly #base: TemplateCacheStore;
  readonly #writes: TemplateCache;

  constructor(base: TemplateCacheStore, now?: () => number) {
    this.#base = base;
    this.#writes = new TemplateCache(now === undefined ? {} : { now });
  }

  get(channel: string, key: string): unknown {
    const own = this.#writes.get(channel, key);
    return own === null ? this.#base.get(channel, key) : own;
  }

  set(channel: string, key: string, value: unknown, ttlSeconds: number): void {
    this.#writes.set(channel, key, value, ttlSeconds);
  }
}
