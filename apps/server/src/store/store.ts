import { rmSync } from "node:fs";
import { join } from "node:path";
import type { OidcArtifactStorage } from "./oidc-artifact-storage.js";
import type { Logger } from "pino";
import { ApiError } from "../errors.js";
import { applyAlertLogEvent } from "./alert-log-events.js";
import type { AlertLogEvent } from "./alert-log-events.js";
import type { RemoteChange, SharedStoreBackend, StoreBackend, StoreBatch, VersionedDocument, WriteOutcome } from "./backend.js";
import { FileBackend, STORE_DIR, readStoreDirectory } from "./file-backend.js";
import { IdBlocks } from "./id-blocks.js";
import { mergeDocument } from "./merge.js";
import { DocumentShapeError, KV_EXTENSION, RECORD_EXTENSIONS, assemble, documentBody, documentKeys, replaceDocument, restoreIdOrder, tableLengths } from "./partitions.js";
import type { DocumentKey } from "./partitions.js";
import type { StoreData } from "./records.js";

export { LOCK_FILE, lockHolder } from "./data-dir-lock.js";
import { lockDataDir } from "./data-dir-lock.js";
import { PostgresBackend } from "./postgres-backend.js";

/** The id sequences a store reserves blocks of at open when several nodes share its database. */
const SHARED_SEQUENCES = ["users", "connections", "personal_access_tokens", "browser_sources", "alert_sets", "commands", "alert_log", ...RECORD_EXTENSIONS];

/** The id blocks of each shared store's data, so that `Store.nextId(data, ...)` finds them. */
const sharedIds = new WeakMap<StoreData, IdBlocks>();

/**
 * What another node changed, once applied to this node's memory: documents replaced (or deleted)
 * and alert-log events applied (entries added, acknowledgements, clears).
 */
export interface RemoteStoreChange {
  documents: DocumentKey[];
  alertLog: Array<{ userId: number; event: AlertLogEvent }>;
}

/** Shortest time between the starts of two writes. */
export const WRITE_INTERVAL_MS = 20;
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
  extensions?: readonly string[];
  meta?: boolean;
}

/**
 * The store: the data lives in memory, mutations are synchronous on it (so they are serialised by
 * construction), and a backend persists what changed: the embedded files by default, PostgreSQL
 * when configured. At most one write starts every WRITE_INTERVAL_MS, each covering every change
 * made before it. `update` returns once memory is changed; `persisted()` resolves once that change
 * is durable.
 *
 * With PostgreSQL several stores ("nodes", one per server process) may share one database: each
 * writes a document only over the version it last saw, merges when another node wrote it first
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
  #sequences: string;
  /** Bumped by every change; a write covers the generation it started with. */
  #generation = 0;
  #writtenGeneration = 0;
  #lastWriteStart = 0;
  #writing: Promise<void> | null = null;
  #waiters: Array<{ generation: number; resolve: () => void; reject: (error: unknown) => void }> = [];
  #closed = false;
  /** Shared backends only: what this node knows of the stored documents, and what it receives. */
  readonly #shared: SharedStoreBackend | null;
  /** The stored version of each document, as this node last saw it. */
  readonly #versions = new Map<string, number>();
  /** The stored body (JSON) of each document at that version: the base of a merge. */
  readonly #bases = new Map<string, string>();
  /** Documents of the write under way. */
  readonly #inFlight = new Set<DocumentKey>();
  readonly #remoteListeners = new Set<(change: RemoteStoreChange) => void>();
  /** Newer stored versions not applied because the document had local changes: looked at again after the write. */
  readonly #deferred = new Map<DocumentKey, number>();
  /** Other nodes' changes are applied one at a time, in the order they were announced. */
  #remoteQueue: Promise<void> = Promise.resolve();

  private constructor(data: StoreData, backend: StoreBackend, logger: Logger | undefined) {
    this.#data = data;
    this.#backend = backend;
    this.#logger = logger;
    this.#knownKeys = documentKeys(data);
    this.#sequences = JSON.stringify(data.sequences);
    this.#shared = backend.shared ?? null;
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
      // A shared backend listens before loading, so nothing committed meanwhile is missed: what
      // arrives before the store exists waits, and is applied only if newer than what was loaded.
      let ready: Store | null = null;
      const early: Array<(store: Store) => void> = [];
      const later = (run: (store: Store) => void) => (ready ? run(ready) : early.push(run));
      await backend.shared?.listen({
        onChange: (change) => later((store) => store.#enqueue(() => store.#applyRemote(change))),
        onResync: () => later((store) => store.#enqueue(() => store.#resync())),
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
        for (const [key, version] of loaded.versions ?? []) store.#versions.set(key, version);
        for (const [key, body] of loaded.documents) store.#bases.set(key, JSON.stringify(body));
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
      // The key-value extension is stored per channel: naming it whole rewrites everything.
      for (const key of t.extensions ?? []) if (key === KV_EXTENSION) this.#allDirty = true;
      else this.#dirty.add(`ext:${key}`);
      if (t.meta) this.#dirty.add("meta");
    };
    if (touched) touch(touched);
    const lengths = this.#shared ? tableLengths(this.#data) : null;
    try {
      return fn(this.#data, touch);
    } finally {
      if (!marked) this.#allDirty = true;
      if (lengths) restoreIdOrder(this.#data, lengths);
      const sequences = this.#shared ? this.#sequences : JSON.stringify(this.#data.sequences);
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
      if (!this.#shared) return { key, body };
      this.#inFlight.add(key);
      return { key, body, base: this.#versions.get(key) ?? null, json: body === null ? undefined : JSON.stringify(body) };
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
      while (this.#writtenGeneration < this.#generation && !(this.#closed && this.#shared)) {
        const wait = this.#lastWriteStart + WRITE_INTERVAL_MS - Date.now();
        await new Promise((resolve) => (wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve)));
        const generation = this.#generation;
        this.#lastWriteStart = Date.now();
        const batch = this.#takeBatch();
        let outcome: WriteOutcome | void;
        try {
          outcome = await this.#backend.write(batch);
        } catch (error) {
          this.#inFlight.clear();
          this.#logger?.error({ err: error }, "store write failed");
          this.#settle(generation, error);
          if (this.#shared?.isTransient(error) && !this.#closed) {
            // The transaction rolled back for want of a connection: keep the changes and try
            // again, so the other nodes and the next start get them once the database answers.
            // (A batch the database refuses for its data is not retried: it would block every write.)
            this.#requeue(batch);
            await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_MS));
          }
          continue;
        }
        this.#inFlight.clear();
        // A conflict is merged and written again: the generation is settled by that write.
        const conflicts = outcome ? this.#written(batch, outcome) : 0;
        this.#retryDeferred();
        if (conflicts > 0) continue;
        this.#settle(generation);
      }
    } finally {
      this.#writing = null;
    }
  }

  /** Puts a batch that was not written back in front of what changed since (shared backends). */
  #requeue(batch: StoreBatch): void {
    for (const { key } of batch.documents) this.#dirty.add(key);
    for (const { userId, events } of batch.alertLogs) this.#pendingLogs.set(userId, [...events, ...(this.#pendingLogs.get(userId) ?? [])]);
    this.#generation++;
  }

  #settle(generation: number, error?: unknown): void {
    this.#writtenGeneration = generation;
    const done = this.#waiters.filter((w) => w.generation <= generation);
    this.#waiters = this.#waiters.filter((w) => w.generation > generation);
    for (const w of done) if (error === undefined) w.resolve();
    else w.reject(error);
  }

  /**
   * Records what a shared backend wrote (versions, bases) and merges each conflict: the stored
   * document (another node's write) is merged with this node's changes since the base, the result
   * replaces the memory's and is written again on the next turn. Returns how many conflicted.
   */
  #written(batch: StoreBatch, outcome: WriteOutcome): number {
    const sent = new Map(batch.documents.map((d) => [d.key, d.json]));
    for (const { key, version } of outcome.written) {
      this.#versions.set(key, version);
      const json = sent.get(key);
      if (json === undefined) this.#bases.delete(key);
      else this.#bases.set(key, json);
    }
    const merged: DocumentKey[] = [];
    for (const remote of outcome.conflicts) {
      const base = this.#bases.get(remote.key);
      const { body, conflicts } = mergeDocument(remote.key, base === undefined ? undefined : JSON.parse(base), documentBody(this.#data, remote.key), remote.body);
      if (conflicts.length > 0) this.#logger?.warn({ key: remote.key, fields: conflicts.slice(0, 20) }, "another node changed the same fields at the same time; this node's values were kept (removals win)");
      try {
        replaceDocument(this.#data, remote.key, body);
      } catch (error) {
        this.#logger?.error({ err: error, key: remote.key }, "a merged document is malformed; keeping this node's version");
      }
      this.#known(remote);
      this.#dirty.add(remote.key);
      merged.push(remote.key);
    }
    if (merged.length > 0) {
      this.#schedule();
      this.#emitRemote({ documents: merged, alertLog: [] });
    }
    return merged.length;
  }

  /** Records a stored document's version and body as this node's base for it. */
  #known(doc: VersionedDocument): void {
    this.#versions.set(doc.key, doc.version);
    if (doc.body === null) this.#bases.delete(doc.key);
    else this.#bases.set(doc.key, JSON.stringify(doc.body));
  }

  /**
   * Calls `listener` after each change another node made is applied to this node's memory (shared
   * backends only). Returns a function that stops the calls.
   */
  onRemoteChange(listener: (change: RemoteStoreChange) => void): () => void {
    this.#remoteListeners.add(listener);
    return () => this.#remoteListeners.delete(listener);
  }

  #emitRemote(change: RemoteStoreChange): void {
    if (change.documents.length === 0 && change.alertLog.length === 0) return;
    for (const listener of this.#remoteListeners) {
      try {
        listener(change);
      } catch (error) {
        this.#logger?.error({ err: error }, "a store change listener failed");
      }
    }
  }

  #enqueue(task: () => Promise<void>): void {
    this.#remoteQueue = this.#remoteQueue.then(task).catch((error: unknown) => {
      if (!this.#closed) this.#logger?.error({ err: error }, "could not apply another node's change");
    });
  }

  /** Whether a document has local changes not yet written (a remote version then waits for the merge). */
  #pendingLocally(key: DocumentKey): boolean {
    return this.#allDirty || this.#dirty.has(key) || this.#inFlight.has(key);
  }

  /** Replaces documents in memory by newer stored versions (those without local changes). */
  #applyDocuments(docs: readonly VersionedDocument[]): DocumentKey[] {
    const applied: DocumentKey[] = [];
    for (const doc of docs) {
      if (doc.version <= (this.#versions.get(doc.key) ?? 0)) continue;
      if (this.#pendingLocally(doc.key)) {
        // Our write will meet it as a conflict, unless it was already under way: look again after it.
        this.#deferred.set(doc.key, Math.max(doc.version, this.#deferred.get(doc.key) ?? 0));
        continue;
      }
      try {
        replaceDocument(this.#data, doc.key, doc.body);
      } catch (error) {
        this.#logger?.error({ err: error, key: doc.key }, "another node stored a malformed document; ignored");
        continue;
      }
      this.#known(doc);
      if (doc.body === null) this.#knownKeys.delete(doc.key);
      else this.#knownKeys.add(doc.key);
      applied.push(doc.key);
    }
    return applied;
  }

  /** Re-reads the deferred documents still newer than what this node knows (once a write is done). */
  #retryDeferred(): void {
    if (this.#deferred.size === 0) return;
    const documents = [...this.#deferred].filter(([key, version]) => version > (this.#versions.get(key) ?? 0)).map(([key, version]) => ({ key, version }));
    this.#deferred.clear();
    if (documents.length > 0) this.#enqueue(() => this.#applyRemote({ documents, added: [], acks: [], clears: [] }));
  }

  /** Applies what another node announced: re-reads the documents and entries, applies them. */
  async #applyRemote(change: RemoteChange): Promise<void> {
    const shared = this.#shared;
    if (!shared || this.#closed) return;
    const newer = change.documents.filter((d) => d.version > (this.#versions.get(d.key) ?? 0)).map((d) => d.key);
    const [docs, added] = await Promise.all([shared.fetchDocuments(newer), shared.fetchAlertEntries(change.added)]);
    if (this.#closed) return;
    const alertLog: RemoteStoreChange["alertLog"] = [];
    const apply = (userId: number, event: AlertLogEvent) => {
      applyAlertLogEvent((this.#data.alert_log[String(userId)] ??= []), event);
      alertLog.push({ userId, event });
    };
    for (const e of added.sort((a, b) => a.logged_at - b.logged_at || a.seq - b.seq)) apply(e.user_id, { t: "add", e });
    for (const a of change.acks) apply(a.userId, { t: "ack", seq: a.seq, bs: a.bs });
    for (const c of change.clears) apply(c.userId, { t: "clear", upTo: c.upTo });
    this.#emitRemote({ documents: this.#applyDocuments(docs), alertLog });
  }

  /**
   * Catches up after announcements were missed (the listening connection was lost): re-reads
   * every document whose stored version is newer, and compares every alert log with the stored one.
   */
  async #resync(): Promise<void> {
    const shared = this.#shared;
    if (!shared || this.#closed) return;
    const versions = await shared.documentVersions();
    const newer = [...versions].filter(([key, version]) => version > (this.#versions.get(key) ?? 0)).map(([key]) => key as DocumentKey);
    const [docs, logs] = await Promise.all([shared.fetchDocuments(newer), shared.fetchAlertLogs()]);
    if (this.#closed) return;
    const alertLog: RemoteStoreChange["alertLog"] = [];
    for (const [userId, stored] of logs) {
      const entries = (this.#data.alert_log[String(userId)] ??= []);
      const bySeq = new Map(entries.map((e) => [e.seq, e]));
      for (const e of stored) {
        const mine = bySeq.get(e.seq);
        if (!mine) {
          const event: AlertLogEvent = { t: "add", e };
          applyAlertLogEvent(entries, event);
          alertLog.push({ userId, event });
          continue;
        }
        for (const bs of e.acked_by) {
          if (mine.acked_by.includes(bs)) continue;
          mine.acked_by.push(bs);
          alertLog.push({ userId, event: { t: "ack", seq: e.seq, bs } });
        }
        if (e.cleared) mine.cleared = true;
      }
    }
    this.#emitRemote({ documents: this.#applyDocuments(docs), alertLog });
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

  /**
   * The value of `extensions[key]`, made by `create` and stored if absent. With several nodes on
   * one database the first node to store it wins and every node gets that value (the identity
   * module's signing keys must be the same on every node).
   */
  async claimExtension<T>(key: string, create: () => T): Promise<T> {
    const existing = this.#data.extensions[key];
    if (existing !== undefined) return existing as T;
    if (!this.#shared) {
      this.update((data) => (data.extensions[key] = create()), { extensions: [key] });
      await this.persisted();
      return this.#data.extensions[key] as T;
    }
    const doc = await this.#shared.claimDocument(`ext:${key}`, create());
    if (!this.#pendingLocally(doc.key) && doc.version > (this.#versions.get(doc.key) ?? 0)) {
      replaceDocument(this.#data, doc.key, doc.body);
      this.#known(doc);
      this.#knownKeys.add(doc.key);
    }
    return (this.#data.extensions[key] ?? doc.body) as T;
  }

  /** Whether several nodes may share this store's database (PostgreSQL). */
  get shared(): boolean {
    return this.#shared !== null;
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
      await this.#remoteQueue;
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
