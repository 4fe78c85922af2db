import { rmSync } from "node:fs";
import { join } from "node:path";
import type { OidcArtifactStorage } from "./oidc-artifact-storage.js";
import type { Logger } from "pino";
import { ApiError } from "../errors.js";
import { applyAlertLogEvent } from "./alert-log-events.js";
import type { AlertLogEvent } from "./alert-log-events.js";
import type { StoreBackend, StoreBatch, WriteOutcome } from "./backend.js";
import { FileBackend, STORE_DIR, readStoreDirectory } from "./file-backend.js";
import { IdBlocks } from "./id-blocks.js";
import { NodeSync } from "./node-sync.js";
import type { RemoteStoreChange } from "./node-sync.js";
import { DocumentShapeError, KV_EXTENSION, KV_VIEWERS_EXTENSION, RECORD_EXTENSIONS, assemble, documentBody, documentKeys, restoreIdOrder, tableLengths } from "./partitions.js";
import type { DocumentKey } from "./partitions.js";
import type { StoreData } from "./records.js";

export { LOCK_FILE, lockHolder } from "./data-dir-lock.js";
export type { RemoteStoreChange } from "./node-sync.js";
import { lockDataDir } from "./data-dir-lock.js";
import type { PostgresBackend } from "./postgres-backend.js";

/** The id sequences a store reserves blocks of at open when several nodes share its database. */
const SHARED_SEQUENCES = ["users", "connections", "personal_access_tokens", "browser_sources", "alert_sets", "commands", "alert_log", ...RECORD_EXTENSIONS];

/** The id blocks of each shared store's data, so that `Store.nextId(data, ...)` finds them. */
const sharedIds = new WeakMap<StoreData, IdBlocks>();

/** Shortest time between the starts of two writes. */
export const WRITE_INTERVAL_MS = 20;
/**
 * Shortest time between the starts of two alert-log writes that hold only acknowledgements and
 * that nobody waits for. Every alert shown brings one (a browser source acknowledges it), and a
 * write every WRITE_INTERVAL_MS for them alone was half of a node's PostgreSQL statements at 200
 * alerts a second. An alert logged, a clear, or a caller of `persisted()` or `alertLogsPersisted()`
 * brings the next start back to WRITE_INTERVAL_MS. With several nodes each acknowledgement is also
 * in Redis at once (`SharedAcknowledgements`).
 */
export const ACK_WRITE_INTERVAL_MS = 100;
/**
 * Slow writes space the next: between two starts at least this many times the duration of the
 * quickest of the last {@link SPACING_WRITES} writes. A big document changed all the time (the
 * platform tokens while thousands of channels refresh theirs) makes every write slow, and would
 * otherwise be rewritten back to back and keep the process busy writing. One write slowed by
 * something else (a garbage collection, a database checkpoint) spaces nothing: spacing by the last
 * write alone held every change after such a stall back three times as long as the stall, which
 * another user's alert, waiting for its write, felt: beside a 100,000-entry giveaway its POST p99
 * was 288-970 ms on the files and 855-1,538 ms on PostgreSQL in three quiet runs of
 * `npm run bench giveaway`, against 33-40 ms and 47-75 ms with this rule.
 */
const WRITE_SPACING = 3;
const SPACING_WRITES = 3;
/** Pause before a write the database refused is tried again (shared backends). */
const WRITE_RETRY_MS = 1_000;

/**
 * What a change touched, so that only those documents are written: users' documents (their
 * record and everything with their `user_id`), key-value channels, extensions, the meta document.
 * A change that names nothing rewrites every document (correct, but its cost grows with the store).
 */
export interface Touched {
  users?: readonly number[];
  kv?: readonly string[];
  /** Viewer-table chunks (`viewerChunkKey`). */
  kvChunks?: readonly DocumentKey[];
  extensions?: readonly string[];
  meta?: boolean;
}

/**
 * The store: the data lives in memory, mutations are synchronous on it (so they are serialised by
 * construction), and a backend persists what changed: the embedded files by default, PostgreSQL
 * when configured. Documents and alert logs are written in two lanes, each one write at a time and
 * at most one start every WRITE_INTERVAL_MS, each write covering every change of its kind made
 * before it: an alert waits for the alerts logged before it, never behind another user's big
 * document (a channel's key-value document with 100,000 chatters is 6 MB, rewritten on every
 * points tick). `update` returns once memory is changed; `persisted()` resolves once every change
 * made so far is durable, `alertLogsPersisted()` once every alert-log change is.
 *
 * With PostgreSQL several stores ("nodes", one per server process) may share one database: each
 * writes a document only over the version it last saw (`node-sync.ts`), merges when another node wrote it first
 * (`merge.ts`), applies what the other nodes announce (documents re-read, alert-log events applied;
 * `onRemoteChange` tells the modules that derive state from the data), catches up after a lost
 * connection, and takes ids from blocks reserved per node (`id-blocks.ts`).
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
  /** Whether the pending alert-log events hold more than acknowledgements (an alert, a clear). */
  #pendingLogsUrgent = false;
  #sequences: string;
  /** Bumped by every change; each lane's write covers its lane's last generation when it started. */
  #generation = 0;
  readonly #docs: Lane = newLane();
  readonly #logs: Lane = newLane();
  /** How long the last document writes took (ms), newest last: slow ones space the next (WRITE_SPACING). */
  #writeMs: number[] = [];
  #waiters: Waiter[] = [];
  #closed = false;
  /** Shared backends only: this node's part in keeping several nodes in step. */
  readonly #sync: NodeSync | null;

  private constructor(data: StoreData, backend: StoreBackend, logger: Logger | undefined) {
    this.#data = data;
    this.#backend = backend;
    this.#logger = logger;
    this.#knownKeys = documentKeys(data);
    this.#sequences = JSON.stringify(data.sequences);
    this.#sync = backend.shared
      ? new NodeSync(backend.shared, {
          data,
          logger,
          knownKeys: this.#knownKeys,
          dirty: (key) => this.#allDirty || this.#dirty.has(key),
          markDirty: (key) => {
            this.#dirty.add(key);
            this.#schedule(this.#docs);
          },
          closed: () => this.#closed,
        })
      : null;
  }

  /**
   * Opens the configured store: PostgreSQL when `databaseUrl` is set, else the embedded files of
   * `dataDir`. Either way `dataDir` is locked (it also holds the admin socket and the identity
   * module's files), so the CLI finds the running server.
   */
  static async openConfigured(config: { dataDir: string; databaseUrl: string | null }, options: { logger?: Logger } = {}): Promise<Store> {
    if (config.databaseUrl === null) return Store.open(config.dataDir, options);
    // Loaded only here: the PostgreSQL driver and kysely cost a CLI command on the files ~0.5 s CPU.
    const { PostgresBackend: Backend } = await import("./postgres-backend.js");
    const lockPath = lockDataDir(config.dataDir, options.logger);
    let backend: PostgresBackend;
    try {
      backend = await Backend.open(config.databaseUrl, { ...options, onClose: () => rmSync(lockPath, { force: true }) });
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
      // A shared backend listens before loading, so nothing committed meanwhile is missed: what
      // arrives before the store exists waits, and is applied only if newer than what was loaded.
      let ready: Store | null = null;
      const early: Array<(store: Store) => void> = [];
      const later = (run: (store: Store) => void) => (ready ? run(ready) : early.push(run));
      await backend.shared?.listen({
        onChange: (change) => later((store) => store.#sync?.announced(change)),
        onResync: () => later((store) => store.#sync?.resync()),
      });
      const loaded = await backend.load();
      let data: StoreData;
      try {
        data = assemble(loaded.documents, loaded.alertLogs);
      } catch (error) {
        if (!(error instanceof DocumentShapeError)) throw error;
        throw new ApiError("OVATION_ERR_STORE_CORRUPT", { message: `The store (${backend.description}) holds a bad document: ${error.message}`, cause: error });
      }
      const store = new Store(data, backend, options.logger);
      if (backend.shared) {
        store.#sync?.loaded(loaded);
        const ids = new IdBlocks(backend.shared.reserveIds, options.logger);
        await ids.prepare(Object.fromEntries(SHARED_SEQUENCES.map((name) => [name, data.sequences[name] ?? 0])));
        sharedIds.set(data, ids);
      }
      ready = store;
      for (const run of early) run(store);
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
      for (const key of t.kvChunks ?? []) this.#dirty.add(key);
      // The key-value extensions are stored per channel and chunk: naming one whole rewrites everything.
      for (const key of t.extensions ?? []) if (key === KV_EXTENSION || key === KV_VIEWERS_EXTENSION) this.#allDirty = true;
      else this.#dirty.add(`ext:${key}`);
      if (t.meta) this.#dirty.add("meta");
    };
    if (touched) touch(touched);
    const lengths = this.#sync ? tableLengths(this.#data) : null;
    try {
      return fn(this.#data, touch);
    } finally {
      if (!marked) this.#allDirty = true;
      if (lengths) restoreIdOrder(this.#data, lengths);
      const sequences = this.#sync ? this.#sequences : JSON.stringify(this.#data.sequences);
      if (sequences !== this.#sequences) {
        this.#sequences = sequences;
        this.#dirty.add("meta");
      }
      this.#schedule(this.#docs);
    }
  }

  /** Applies an event to a user's alert log and appends it to the stored log. */
  logAlert(userId: number, event: AlertLogEvent): void {
    if (this.#closed) throw new Error("store is closed");
    applyAlertLogEvent((this.#data.alert_log[String(userId)] ??= []), event);
    const pending = this.#pendingLogs.get(userId);
    if (pending) pending.push(event);
    else this.#pendingLogs.set(userId, [event]);
    if (event.t !== "ack" && !this.#pendingLogsUrgent) {
      this.#pendingLogsUrgent = true;
      this.#logs.hurry?.();
    }
    this.#schedule(this.#logs);
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

  /**
   * Next value of a named id sequence (1, 2, 3...). Call inside `update`. With several nodes on one
   * PostgreSQL database the ids come from blocks each node reserves: unique, never reused, in
   * ascending order per node, with gaps.
   */
  static nextId(data: StoreData, sequence: string): number {
    const shared = sharedIds.get(data);
    if (shared) {
      // Kept in memory as a floor for the next start; not written (the blocks table is the truth).
      const id = shared.next(sequence);
      if (id > (data.sequences[sequence] ?? 0)) data.sequences[sequence] = id;
      return id;
    }
    const next = (data.sequences[sequence] ?? 0) + 1;
    data.sequences[sequence] = next;
    return next;
  }

  #schedule(lane: Lane): void {
    lane.changed = ++this.#generation;
    if (lane.writing === null) lane.writing = lane === this.#docs ? this.#writeDocuments() : this.#writeAlertLogs();
  }

  /** The documents changed since the last batch, taken out of the pending set. */
  #takeDocuments(): StoreBatch {
    const keys = this.#allDirty ? new Set([...documentKeys(this.#data), ...this.#knownKeys, ...this.#dirty]) : this.#dirty;
    const documents = [...keys].map((key) => {
      const body = documentBody(this.#data, key);
      if (body === null) this.#knownKeys.delete(key);
      else this.#knownKeys.add(key);
      return this.#sync ? this.#sync.batchDocument(key, body) : { key, body };
    });
    this.#dirty = new Set();
    this.#allDirty = false;
    return { documents, alertLogs: [] };
  }

  /** The alert-log events logged since the last batch, taken out of the pending map. */
  #takeAlertLogs(): StoreBatch {
    const alertLogs = [...this.#pendingLogs].map(([userId, events]) => ({ userId, events, entries: this.#data.alert_log[String(userId)] ?? [] }));
    this.#pendingLogs = new Map();
    this.#pendingLogsUrgent = false;
    return { documents: [], alertLogs };
  }

  /**
   * Waits until `lane` may start its next write: WRITE_INTERVAL_MS (or `spacing`) after its last
   * start, or `relaxed()` ms while that gives a number (a write nobody needs soon). `lane.hurry`
   * cuts a relaxed wait short to the usual pace.
   */
  async #pace(lane: Lane, spacing: number, relaxed: () => number | null = () => null): Promise<void> {
    for (;;) {
      const wait = lane.lastStart + (relaxed() ?? Math.max(WRITE_INTERVAL_MS, spacing)) - Date.now();
      if (wait <= 0) return new Promise((resolve) => setImmediate(resolve));
      const hurried = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), wait);
        lane.hurry = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      lane.hurry = null;
      if (!hurried) return;
    }
  }

  /** ACK_WRITE_INTERVAL_MS while the pending alert-log events are acknowledgements only and nobody waits for them. */
  #ackPace(): number | null {
    if (this.#pendingLogsUrgent || this.#closed) return null;
    return this.#waiters.some((w) => w.logs > this.#logs.written) ? null : ACK_WRITE_INTERVAL_MS;
  }

  /**
   * Writes documents until the backend holds the lane's latest generation. Changes made while a
   * write runs, or within WRITE_INTERVAL_MS of its start, share the next write.
   */
  async #writeDocuments(): Promise<void> {
    const lane = this.#docs;
    try {
      while (lane.written < lane.changed && !(this.#closed && this.#sync)) {
        await this.#pace(lane, this.#spacingMs());
        const generation = lane.changed;
        lane.lastStart = Date.now();
        const batch = this.#takeDocuments();
        let outcome: WriteOutcome | void;
        try {
          outcome = await this.#backend.write(batch);
          this.#writeMs = [...this.#writeMs.slice(1 - SPACING_WRITES), Date.now() - lane.lastStart];
        } catch (error) {
          this.#sync?.failed();
          this.#logger?.error({ err: error }, "store write failed");
          this.#settle(lane, generation, error);
          if (this.#sync?.backend.isTransient(error) && !this.#closed) {
            // The transaction rolled back for want of a connection: keep the changes and try
            // again, so the other nodes and the next start get them once the database answers.
            // (A batch the database refuses for its data is not retried: it would block every write.)
            for (const { key } of batch.documents) this.#dirty.add(key);
            lane.changed = ++this.#generation;
            await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_MS));
          }
          continue;
        }
        // A conflict is merged and written again: the generation is settled by that write.
        const conflicts = outcome && this.#sync ? this.#sync.written(batch, outcome) : 0;
        if (conflicts > 0) continue;
        this.#settle(lane, generation);
      }
    } finally {
      lane.writing = null;
    }
  }

  /**
   * Writes alert-log events until the backend holds the lane's latest generation, beside the
   * document writes (the backends write the two to different files or tables), in the order logged.
   */
  async #writeAlertLogs(): Promise<void> {
    const lane = this.#logs;
    try {
      while (lane.written < lane.changed && !(this.#closed && this.#sync)) {
        await this.#pace(lane, 0, () => this.#ackPace());
        const generation = lane.changed;
        lane.lastStart = Date.now();
        const batch = this.#takeAlertLogs();
        try {
          await this.#backend.write(batch);
        } catch (error) {
          this.#logger?.error({ err: error }, "store write failed");
          this.#settle(lane, generation, error);
          if (this.#sync?.backend.isTransient(error) && !this.#closed) {
            // As for documents: the events go back in front of those logged since, and are tried again.
            for (const { userId, events } of batch.alertLogs) this.#pendingLogs.set(userId, [...events, ...(this.#pendingLogs.get(userId) ?? [])]);
            this.#pendingLogsUrgent ||= batch.alertLogs.some(({ events }) => events.some((e) => e.t !== "ack"));
            lane.changed = ++this.#generation;
            await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_MS));
          }
          continue;
        }
        this.#settle(lane, generation);
      }
    } finally {
      lane.writing = null;
    }
  }

  /** The pause a run of slow document writes asks for before the next start (0 until there is such a run). */
  #spacingMs(): number {
    return this.#writeMs.length < SPACING_WRITES ? 0 : Math.min(...this.#writeMs) * WRITE_SPACING;
  }

  /**
   * Records that `lane` wrote up to `generation` (or failed to: the waiters for a change of that
   * write are rejected), and resolves the waiters both lanes now cover.
   */
  #settle(lane: Lane, generation: number, error?: unknown): void {
    const from = lane.written;
    lane.written = generation;
    const asked = (w: Waiter) => (lane === this.#docs ? w.docs : w.logs);
    const waiting: Waiter[] = [];
    for (const w of this.#waiters) {
      if (error !== undefined && asked(w) > from && asked(w) <= generation) w.reject(error);
      else if (w.docs <= this.#docs.written && w.logs <= this.#logs.written) w.resolve();
      else waiting.push(w);
    }
    this.#waiters = waiting;
  }

  /**
   * Calls `listener` after each change another node made is applied to this node's memory (shared
   * backends only). Returns a function that stops the calls.
   */
  onRemoteChange(listener: (change: RemoteStoreChange) => void): () => void {
    return this.#sync?.onRemoteChange(listener) ?? (() => undefined);
  }

  /** Resolves once every change made so far is durable (rejects if that write failed). */
  persisted(): Promise<void> {
    return this.#wait(this.#docs.changed, this.#logs.changed);
  }

  /**
   * Resolves once every alert-log change made so far is durable (rejects if that write failed),
   * whatever documents are still being written: what an alert's answer waits for.
   */
  alertLogsPersisted(): Promise<void> {
    return this.#wait(0, this.#logs.changed);
  }

  #wait(docs: number, logs: number): Promise<void> {
    if (this.#docs.written >= docs && this.#logs.written >= logs) return Promise.resolve();
    const waiter = new Promise<void>((resolve, reject) => this.#waiters.push({ docs, logs, resolve, reject }));
    if (logs > this.#logs.written) this.#logs.hurry?.();
    return waiter;
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

  /**
   * The value of `extensions[key]`, made by `create` and stored if absent. With several nodes on
   * one database the first node to store it wins and every node gets that value (the identity
   * module's signing keys must be the same on every node).
   */
  async claimExtension<T>(key: string, create: () => T): Promise<T> {
    const existing = this.#data.extensions[key];
    if (existing !== undefined) return existing as T;
    if (!this.#sync) {
      this.update((data) => (data.extensions[key] = create()), { extensions: [key] });
      await this.persisted();
      return this.#data.extensions[key] as T;
    }
    const doc = await this.#sync.claim(`ext:${key}`, create());
    return (this.#data.extensions[key] ?? doc.body) as T;
  }

  /** Whether several nodes may share this store's database (PostgreSQL). */
  get shared(): boolean {
    return this.#sync !== null;
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
      await this.#sync?.drained();
      await this.#backend.close();
    }
  }
}

/** One of the store's two write lanes (documents, alert logs): one write at a time each. */
interface Lane {
  /** The generation of the lane's last change. */
  changed: number;
  /** The generation its last finished write covered. */
  written: number;
  lastStart: number;
  writing: Promise<void> | null;
  /** Set while the lane waits a relaxed pace: brings its next start forward to the usual pace. */
  hurry: (() => void) | null;
}

function newLane(): Lane {
  return { changed: 0, written: 0, lastStart: 0, writing: null, hurry: null };
}

/** A caller of `persisted()` (or `alertLogsPersisted()`): the generation of each lane it waits for (0: none). */
interface Waiter {
  docs: number;
  logs: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * What the embedded store of `dataDir` holds on disk, read without locking (for tools and tests;
 * a running server may be writing meanwhile).
 */
export function readStoredData(dataDir: string): StoreData {
  const { store } = readStoreDirectory(join(dataDir, STORE_DIR));
  return assemble(store.documents, store.alertLogs);
}
