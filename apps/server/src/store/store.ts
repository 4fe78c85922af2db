import { rmSync } from "node:fs";
import { join } from "node:path";
import type { OidcArtifactStorage } from "./oidc-artifact-storage.js";
import type { Logger } from "pino";
import { ApiError } from "../errors.js";
import { applyAlertLogEvent } from "./alert-log-events.js";
import type { AlertLogEvent } from "./alert-log-events.js";
import type { StoreBackend, StoreBatch } from "./backend.js";
import { FileBackend, STORE_DIR, readStoreDirectory } from "./file-backend.js";
import { DocumentShapeError, KV_EXTENSION, assemble, documentBody, documentKeys } from "./partitions.js";
import type { DocumentKey } from "./partitions.js";
import type { StoreData } from "./records.js";

export { LOCK_FILE, lockHolder } from "./data-dir-lock.js";
import { lockDataDir } from "./data-dir-lock.js";
import { PostgresBackend } from "./postgres-backend.js";

/** Shortest time between the starts of two writes. */
export const WRITE_INTERVAL_MS = 20;

/**
 * What a change touched, so that only those documents are written: users' documents (their
 * record and everything with their `user_id`), key-value channels, extensions, the meta document.
 * A change that names nothing rewrites every document (correct, but its cost grows with the store).
 */
export interface Touched {
  users?: readonly number[];
  kv?: readonly string[];
  extensions?: readonly string[];
  meta?: boolean;
}

/**
 * The store: the data lives in memory, mutations are synchronous on it (so they are serialised by
 * construction), and a backend persists what changed: the embedded files by default, PostgreSQL
 * when configured. At most one write starts every WRITE_INTERVAL_MS, each covering every change
 * made before it. `update` returns once memory is changed; `persisted()` resolves once that change
 * is durable.
 */
export class Store {
  readonly #data: StoreData;
  readonly #backend: StoreBackend;
  readonly #logger: Logger | undefined;
  /** Documents the backend holds, to delete those whose data is gone. */
  readonly #knownKeys: Set<DocumentKey>;
  #dirty = new Set<DocumentKey>();
  #allDirty = false;
  #pendingLogs = new Map<number, AlertLogEvent[]>();
  #sequences: string;
  /** Bumped by every change; a write covers the generation it started with. */
  #generation = 0;
  #writtenGeneration = 0;
  #lastWriteStart = 0;
  #writing: Promise<void> | null = null;
  #waiters: Array<{ generation: number; resolve: () => void; reject: (error: unknown) => void }> = [];
  #closed = false;

  private constructor(data: StoreData, backend: StoreBackend, logger: Logger | undefined) {
    this.#data = data;
    this.#backend = backend;
    this.#logger = logger;
    this.#knownKeys = documentKeys(data);
    this.#sequences = JSON.stringify(data.sequences);
  }

  /**
   * Opens the configured store: PostgreSQL when `databaseUrl` is set, else the embedded files of
   * `dataDir`. Either way `dataDir` is locked (it also holds the admin socket and the identity
   * module's files), so the CLI finds the running server.
   */
  static async openConfigured(config: { dataDir: string; databaseUrl: string | null }, options: { logger?: Logger } = {}): Promise<Store> {
    if (config.databaseUrl === null) return Store.open(config.dataDir, options);
    const lockPath = lockDataDir(config.dataDir, options.logger);
    let backend: PostgresBackend;
    try {
      backend = await PostgresBackend.open(config.databaseUrl, { ...options, onClose: () => rmSync(lockPath, { force: true }) });
    } catch (error) {
      rmSync(lockPath, { force: true });
      throw error;
    }
    return Store.fromBackend(backend, options);
  }

  /** Opens (creating if needed) the embedded store of `dataDir` and locks the directory. */
  static async open(dataDir: string, options: { logger?: Logger } = {}): Promise<Store> {
    return Store.fromBackend(await FileBackend.open(dataDir, options), options);
  }

  /** Loads a store from a backend (the backend is closed with the store, or at once if loading fails). */
  static async fromBackend(backend: StoreBackend, options: { logger?: Logger } = {}): Promise<Store> {
    try {
      const loaded = await backend.load();
      let data: StoreData;
      try {
        data = assemble(loaded.documents, loaded.alertLogs);
      } catch (error) {
        if (!(error instanceof DocumentShapeError)) throw error;
        throw new ApiError("OVATION_ERR_STORE_CORRUPT", { message: `The store (${backend.description}) holds a bad document: ${error.message}`, cause: error });
      }
      const store = new Store(data, backend, options.logger);
      if (!loaded.documents.has("meta")) {
        store.update(() => undefined, { meta: true });
        await store.persisted();
      }
      return store;
    } catch (error) {
      await backend.close();
      throw error;
    }
  }

  /**
   * Storage for the identity module's oidc-provider artifacts in this store's backend
   * (PostgreSQL), or null when the identity module keeps them in its own files.
   */
  get oidcStorage(): OidcArtifactStorage | null {
    return this.#backend.oidcStorage?.() ?? null;
  }

  /** Where the data is kept, for logs. */
  get description(): string {
    return this.#backend.description;
  }

  /** The in-memory data. Read it freely; change it only inside `update` (alert logs: `logAlert`). */
  get data(): Readonly<StoreData> {
    return this.#data;
  }

  /**
   * Runs `fn` on the data, schedules a write and returns `fn`'s result. Say what the change
   * touches, either as `touched` or by calling `touch` inside `fn` (when it is known only there);
   * without either, every document is rewritten.
   */
  update<T>(fn: (data: StoreData, touch: (touched: Touched) => void) => T, touched?: Touched): T {
    if (this.#closed) throw new Error("store is closed");
    let marked = false;
    const touch = (t: Touched) => {
      marked = true;
      for (const id of t.users ?? []) this.#dirty.add(`user:${id}`);
      for (const channel of t.kv ?? []) this.#dirty.add(`kv:${channel}`);
      // The key-value extension is stored per channel: naming it whole rewrites everything.
      for (const key of t.extensions ?? []) if (key === KV_EXTENSION) this.#allDirty = true;
      else this.#dirty.add(`ext:${key}`);
      if (t.meta) this.#dirty.add("meta");
    };
    if (touched) touch(touched);
    try {
      return fn(this.#data, touch);
    } finally {
      if (!marked) this.#allDirty = true;
      const sequences = JSON.stringify(this.#data.sequences);
      if (sequences !== this.#sequences) {
        this.#sequences = sequences;
        this.#dirty.add("meta");
      }
      this.#schedule();
    }
  }

  /** Applies an event to a user's alert log and appends it to the stored log. */
  logAlert(userId: number, event: AlertLogEvent): void {
    if (this.#closed) throw new Error("store is closed");
    applyAlertLogEvent((this.#data.alert_log[String(userId)] ??= []), event);
    const pending = this.#pendingLogs.get(userId);
    if (pending) pending.push(event);
    else this.#pendingLogs.set(userId, [event]);
    this.#schedule();
  }

  /**
   * Next alert-log sequence number. Unlike other sequences it does not rewrite the meta document
   * (that would be a second write per alert): at load it is raised to the highest logged one.
   */
  nextAlertSeq(): number {
    const next = Store.nextId(this.#data, "alert_log");
    this.#sequences = JSON.stringify(this.#data.sequences);
    return next;
  }

  /** Next value of a named id sequence (1, 2, 3...). Call inside `update`. */
  static nextId(data: StoreData, sequence: string): number {
    const next = (data.sequences[sequence] ?? 0) + 1;
    data.sequences[sequence] = next;
    return next;
  }

  #schedule(): void {
    this.#generation++;
    if (this.#writing === null) this.#writing = this.#writeLoop();
  }

  /** What changed since the last batch, taken out of the pending sets. */
  #takeBatch(): StoreBatch {
    const keys = this.#allDirty ? new Set([...documentKeys(this.#data), ...this.#knownKeys, ...this.#dirty]) : this.#dirty;
    const documents = [...keys].map((key) => {
      const body = documentBody(this.#data, key);
      if (body === null) this.#knownKeys.delete(key);
      else this.#knownKeys.add(key);
      return { key, body };
    });
    const alertLogs = [...this.#pendingLogs].map(([userId, events]) => ({ userId, events, entries: this.#data.alert_log[String(userId)] ?? [] }));
    this.#dirty = new Set();
    this.#allDirty = false;
    this.#pendingLogs = new Map();
    return { documents, alertLogs };
  }

  /**
   * Writes until the backend holds the latest generation. Changes made while a write runs, or
   * within WRITE_INTERVAL_MS of its start, share the next write.
   */
  async #writeLoop(): Promise<void> {
    try {
      while (this.#writtenGeneration < this.#generation) {
        const wait = this.#lastWriteStart + WRITE_INTERVAL_MS - Date.now();
        await new Promise((resolve) => (wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve)));
        const generation = this.#generation;
        this.#lastWriteStart = Date.now();
        try {
          await this.#backend.write(this.#takeBatch());
        } catch (error) {
          this.#logger?.error({ err: error }, "store write failed");
          this.#settle(generation, error);
          continue;
        }
        this.#settle(generation);
      }
    } finally {
      this.#writing = null;
    }
  }

  #settle(generation: number, error?: unknown): void {
    this.#writtenGeneration = generation;
    const done = this.#waiters.filter((w) => w.generation <= generation);
    this.#waiters = this.#waiters.filter((w) => w.generation > generation);
    for (const w of done) if (error === undefined) w.resolve();
    else w.reject(error);
  }

  /** Resolves once every change made so far is durable (rejects if that write failed). */
  persisted(): Promise<void> {
    if (this.#writtenGeneration >= this.#generation) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ generation: this.#generation, resolve, reject }));
  }

  /**
   * A typed handle on `extensions[key]`, where other modules (plugins...) keep their data in
   * the store, written as a document of its own. `init` gives the value when the key is absent.
   */
  extension<T>(key: string, init: () => T): { read(): T; update<R>(fn: (value: T) => R): R } {
    return {
      read: () => (this.#data.extensions[key] as T | undefined) ?? init(),
      update: <R>(fn: (value: T) => R): R =>
        this.update(
          (data) => {
            const current = (data.extensions[key] as T | undefined) ?? init();
            data.extensions[key] = current;
            return fn(current);
          },
          { extensions: [key] },
        ),
    };
  }

  /** The extension keys that start with `prefix` (per-user documents such as `bot_state.<userId>`). */
  extensionKeys(prefix: string): string[] {
    return Object.keys(this.#data.extensions).filter((key) => key.startsWith(prefix));
  }

  /** Flushes pending writes and releases the backend. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.persisted();
    } finally {
      this.#closed = true;
      await this.#backend.close();
    }
  }
}

/**
 * What the embedded store of `dataDir` holds on disk, read without locking (for tools and tests;
 * a running server may be writing meanwhile).
 */
export function readStoredData(dataDir: string): StoreData {
  const { store } = readStoreDirectory(join(dataDir, STORE_DIR));
  return assemble(store.documents, store.alertLogs);
}
