import type { Logger } from "pino";
import { applyAlertLogEvent, findBySeq } from "./alert-log-events.js";
import type { AlertLogEvent } from "./alert-log-events.js";
import type { LoadedStore, RemoteChange, SharedStoreBackend, StoreBatch, VersionedDocument, WriteOutcome } from "./backend.js";
import { mergeDocument } from "./merge.js";
import { compactEntry } from "./logged-alert.js";
import { documentBody, replaceDocument } from "./partitions.js";
import type { DocumentKey } from "./partitions.js";
import type { AlertLogEntry, StoreData, StoredAlertLogEntry } from "./records.js";

/**
 * What another node changed, once applied to this node's memory: documents replaced (or deleted)
 * and alert-log events applied (entries added, acknowledgements, clears).
 */
export interface RemoteStoreChange {
  documents: DocumentKey[];
  alertLog: Array<{ userId: number; event: AlertLogEvent }>;
}

/** What `NodeSync` needs of the store it keeps in step. */
export interface SyncedStore {
  readonly data: StoreData;
  readonly logger: Logger | undefined;
  /** Documents the backend holds. */
  readonly knownKeys: Set<DocumentKey>;
  /** Whether a document has changes not yet taken into a write. */
  dirty(key: DocumentKey): boolean;
  /** Marks a document to be written and schedules the write. */
  markDirty(key: DocumentKey): void;
  closed(): boolean;
}

/**
 * A store's part in several nodes sharing one database (PostgreSQL): the version and body of each
 * document as this node last saw it (the base of a write and of a merge), the application of what
 * other nodes announce, the catch-up after a lost connection, and the listeners told about it.
 */
export class NodeSync {
  /** The stored version of each document, as this node last saw it. */
  readonly #versions = new Map<string, number>();
  /** The stored body (JSON) of each document at that version: the base of a merge. */
  readonly #bases = new Map<string, string>();
  /** Documents of the write under way. */
  readonly #inFlight = new Set<DocumentKey>();
  /** Newer stored versions not applied because the document had local changes: looked at again after the write. */
  readonly #deferred = new Map<DocumentKey, number>();
  readonly #listeners = new Set<(change: RemoteStoreChange) => void>();
  /** Other nodes' changes are applied one at a time, in the order they were announced. */
  #queue: Promise<void> = Promise.resolve();

  constructor(
    readonly backend: SharedStoreBackend,
    private readonly store: SyncedStore,
  ) {}

  /** Takes the versions and bodies loaded at open as this node's bases. */
  loaded(loaded: LoadedStore): void {
    for (const [key, version] of loaded.versions ?? []) this.#versions.set(key, version);
    for (const [key, body] of loaded.documents) this.#bases.set(key, JSON.stringify(body));
  }

  /** A document of a write: with the version it is written over and its serialised body. */
  batchDocument(key: DocumentKey, body: unknown): StoreBatch["documents"][number] {
    this.#inFlight.add(key);
    return { key, body, base: this.#versions.get(key) ?? null, json: body === null ? undefined : JSON.stringify(body) };
  }

  /** Whether a document has local changes not written yet (a remote version then waits for the merge). */
  #pendingLocally(key: DocumentKey): boolean {
    return this.store.dirty(key) || this.#inFlight.has(key);
  }

  /** The write failed: its documents are no longer under way. */
  failed(): void {
    this.#inFlight.clear();
  }

  /**
   * Records what the backend wrote (versions, bases) and merges each conflict: the stored document
   * (another node's write) is merged with this node's changes since the base, the result replaces
   * the memory's and is marked to be written again. Returns how many conflicted.
   */
  written(batch: StoreBatch, outcome: WriteOutcome): number {
    this.#inFlight.clear();
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
      const { body, conflicts } = mergeDocument(remote.key, base === undefined ? undefined : JSON.parse(base), documentBody(this.store.data, remote.key), remote.body);
      if (conflicts.length > 0) this.store.logger?.warn({ key: remote.key, fields: conflicts.slice(0, 20) }, "another node changed the same fields at the same time; this node's values were kept (removals win)");
      try {
        replaceDocument(this.store.data, remote.key, body);
      } catch (error) {
        this.store.logger?.error({ err: error, key: remote.key }, "a merged document is malformed; keeping this node's version");
      }
      this.#known(remote);
      this.store.markDirty(remote.key);
      merged.push(remote.key);
    }
    this.#emit({ documents: merged, alertLog: [] });
    this.#retryDeferred();
    return merged.length;
  }

  /** Records a stored document's version and body as this node's base for it. */
  #known(doc: VersionedDocument): void {
    this.#versions.set(doc.key, doc.version);
    if (doc.body === null) this.#bases.delete(doc.key);
    else this.#bases.set(doc.key, JSON.stringify(doc.body));
  }

  /** Calls `listener` after each change another node made is applied; returns a function that stops the calls. */
  onRemoteChange(listener: (change: RemoteStoreChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(change: RemoteStoreChange): void {
    if (change.documents.length === 0 && change.alertLog.length === 0) return;
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.store.logger?.error({ err: error }, "a store change listener failed");
      }
    }
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((error: unknown) => {
      if (!this.store.closed()) this.store.logger?.error({ err: error }, "could not apply another node's change");
    });
  }

  /** Queues another node's announcement. */
  announced(change: RemoteChange): void {
    this.#enqueue(() => this.#applyRemote(change));
  }

  /** Queues a catch-up (the announcements were interrupted). */
  resync(): void {
    this.#enqueue(() => this.#resync());
  }

  /** Resolves once the queued changes are applied (or dropped). */
  drained(): Promise<void> {
    return this.#queue;
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
        replaceDocument(this.store.data, doc.key, doc.body);
      } catch (error) {
        this.store.logger?.error({ err: error, key: doc.key }, "another node stored a malformed document; ignored");
        continue;
      }
      this.#known(doc);
      if (doc.body === null) this.store.knownKeys.delete(doc.key);
      else this.store.knownKeys.add(doc.key);
      applied.push(doc.key);
    }
    return applied;
  }

  /** Re-reads the deferred documents still newer than what this node knows (once a write is done). */
  #retryDeferred(): void {
    if (this.#deferred.size === 0) return;
    const documents = [...this.#deferred].filter(([key, version]) => version > (this.#versions.get(key) ?? 0)).map(([key, version]) => ({ key, version }));
    this.#deferred.clear();
    if (documents.length > 0) this.announced({ documents, added: [], acks: [], clears: [] });
  }

  /** Applies what another node announced: re-reads the documents and entries, applies them. */
  async #applyRemote(change: RemoteChange): Promise<void> {
    if (this.store.closed()) return;
    const newer = change.documents.filter((d) => d.version > (this.#versions.get(d.key) ?? 0)).map((d) => d.key);
    // Entries whose text came with the announcement are not read back (a text that does not parse
    // as an entry is read back too).
    const carried: AlertLogEntry[] = [];
    const toRead: RemoteChange["added"] = [];
    for (const a of change.added) {
      const entry = a.entry === undefined ? null : entryOfText(a.entry, a.userId, a.seq);
      if (entry === null) toRead.push(a);
      else carried.push(entry);
    }
    const [docs, read] = await Promise.all([this.backend.fetchDocuments(newer), this.backend.fetchAlertEntries(toRead)]);
    const added = [...carried, ...read];
    if (this.store.closed()) return;
    const alertLog: RemoteStoreChange["alertLog"] = [];
    const entriesOf = (userId: number) => (this.store.data.alert_log[String(userId)] ??= []);
    for (const e of added.sort((a, b) => a.logged_at - b.logged_at || a.seq - b.seq)) {
      const entries = entriesOf(e.user_id);
      takeRemoteEntry(entries, e, alertLog, findBySeq(entries, e.seq));
    }
    for (const { userId, seq, bs } of change.acks) {
      const entries = entriesOf(userId);
      // An acknowledgement this node's log already holds (or of an entry it no longer keeps) changes
      // nothing and was reported already (the entry read for its announcement may have carried it).
      if (findBySeq(entries, seq)?.acked_by.includes(bs) !== false) continue;
      const event: AlertLogEvent = { t: "ack", seq, bs };
      applyAlertLogEvent(entries, event);
      alertLog.push({ userId, event });
    }
    for (const { userId, upTo } of change.clears) {
      const event: AlertLogEvent = { t: "clear", upTo };
      applyAlertLogEvent(entriesOf(userId), event);
      alertLog.push({ userId, event });
    }
    this.#emit({ documents: this.#applyDocuments(docs), alertLog });
  }

  /**
   * Catches up after announcements were missed (the listening connection was lost): re-reads
   * every document whose stored version is newer, and compares every alert log with the stored one.
   */
  async #resync(): Promise<void> {
    if (this.store.closed()) return;
    const versions = await this.backend.documentVersions();
    const newer = [...versions].filter(([key, version]) => version > (this.#versions.get(key) ?? 0)).map(([key]) => key as DocumentKey);
    const [docs, logs] = await Promise.all([this.backend.fetchDocuments(newer), this.backend.fetchAlertLogs()]);
    if (this.store.closed()) return;
    const alertLog: RemoteStoreChange["alertLog"] = [];
    for (const [userId, stored] of logs) {
      const entries = (this.store.data.alert_log[String(userId)] ??= []);
      const bySeq = new Map(entries.map((e) => [e.seq, e]));
      for (const e of stored) takeRemoteEntry(entries, e, alertLog, bySeq.get(e.seq));
    }
    this.#emit({ documents: this.#applyDocuments(docs), alertLog });
  }

  /** Stores `body` under `key` unless another node did first; the stored document is applied to memory. */
  async claim(key: DocumentKey, body: unknown): Promise<VersionedDocument> {
    const doc = await this.backend.claimDocument(key, body);
    if (!this.#pendingLocally(doc.key) && doc.version > (this.#versions.get(doc.key) ?? 0)) {
      replaceDocument(this.store.data, doc.key, doc.body);
      this.#known(doc);
      this.store.knownKeys.add(doc.key);
    }
    return doc;
  }
}

/**
 * Takes an entry another node stored into this node's log and reports what changed: `add` for an
 * entry the log did not hold, then `ack` for each acknowledgement it carries that this node's copy
 * lacks. The entry is read from the database after its announcement, so it may already carry
 * acknowledgements made since (on any node); those are reported here, once, and the `ack`
 * announcements that follow are then skipped as held (`#applyRemote`), so every node's listeners
 * (the dashboards' alert-log updates) hear of each acknowledgement exactly once.
 */
function takeRemoteEntry(entries: AlertLogEntry[], e: AlertLogEntry, report: RemoteStoreChange["alertLog"], mine: AlertLogEntry | undefined): void {
  const userId = e.user_id;
  if (!mine) {
    applyAlertLogEvent(entries, { t: "add", e });
    report.push({ userId, event: { t: "add", e } });
    for (const bs of e.acked_by) report.push({ userId, event: { t: "ack", seq: e.seq, bs } });
    return;
  }
  for (const bs of e.acked_by) {
    if (mine.acked_by.includes(bs)) continue;
    mine.acked_by = mine.acked_by.concat(bs);
    report.push({ userId, event: { t: "ack", seq: e.seq, bs } });
  }
  if (e.cleared) mine.cleared = true;
}

/** The entry an announcement carried, or null when its text is not the entry announced (then it is read back). */
function entryOfText(text: string, userId: number, seq: number): AlertLogEntry | null {
  try {
    const entry = compactEntry(JSON.parse(text) as StoredAlertLogEntry);
    return entry.user_id === userId && entry.seq === seq ? entry : null;
  } catch {
    return null;
  }
}
