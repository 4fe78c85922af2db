import type { OidcArtifactStorage } from "./oidc-artifact-storage.js";
import type { AlertLogEvent } from "./alert-log-events.js";
import type { ReserveIds } from "./id-blocks.js";
import type { DocumentKey } from "./partitions.js";
import type { AlertLogEntry } from "./records.js";

/** What a backend gives back at start: every document and every user's alert log. */
export interface LoadedStore {
  documents: Map<string, unknown>;
  alertLogs: Map<number, AlertLogEntry[]>;
  /** Each stored document's version (shared backends; deleted documents keep theirs). */
  versions?: Map<string, number>;
}

/** The changes of one write: documents to replace (`body` null: delete), alert-log events to append. */
export interface StoreBatch {
  /**
   * `base`: the version this node last saw (shared backends; null: none, the document is new to
   * it); a stored document whose version differs is not written but reported as a conflict.
   * `json`: the body already serialised, when the store has it.
   */
  documents: Array<{ key: DocumentKey; body: unknown; base?: number | null; json?: string }>;
  /**
   * Per user, the events to append and the user's whole log after them (a backend may rewrite the
   * log from it to keep its size bounded). Serialise `entries` before the first await: it changes.
   */
  alertLogs: Array<{ userId: number; events: AlertLogEvent[]; entries: readonly AlertLogEntry[] }>;
}

/** A stored document and its version (`body` null: deleted). */
export interface VersionedDocument {
  key: DocumentKey;
  version: number;
  body: unknown;
}

/** What a shared backend did with a batch. */
export interface WriteOutcome {
  /** Documents written, with their new version. */
  written: Array<{ key: DocumentKey; version: number }>;
  /** Documents not written because another node wrote them after `base`: what is stored now. */
  conflicts: VersionedDocument[];
}

/** What another node committed, as announced to this one (bodies and entries are read on demand). */
export interface RemoteChange {
  documents: Array<{ key: DocumentKey; version: number }>;
  /**
   * Alert-log entries added. `entry`: the stored entry's JSON text, when the announcement carried it
   * (it fits in a NOTIFY payload); the others are read with `fetchAlertEntries`.
   */
  added: Array<{ userId: number; seq: number; entry?: string }>;
  acks: Array<{ userId: number; seq: number; bs: number }>;
  clears: Array<{ userId: number; upTo: number }>;
}

/**
 * What a backend shared by several nodes (PostgreSQL) adds: versions, announcements of other
 * nodes' commits, reads of what they changed, and shared id blocks.
 */
export interface SharedStoreBackend {
  /**
   * Starts receiving other nodes' changes: `onChange` for each commit, `onResync` after the
   * announcements were interrupted (the node must re-read what changed meanwhile).
   */
  listen(handlers: { onChange: (change: RemoteChange) => void; onResync: () => void; onDisconnect?: () => void }): Promise<void>;
  /** The stored documents of `keys` (absent keys are not returned). */
  fetchDocuments(keys: readonly DocumentKey[]): Promise<VersionedDocument[]>;
  /** Every stored document's version. */
  documentVersions(): Promise<Map<string, number>>;
  /** The stored alert-log entries of these (user, seq) pairs (those still stored). */
  fetchAlertEntries(entries: ReadonlyArray<{ userId: number; seq: number }>): Promise<AlertLogEntry[]>;
  /** Every stored alert log. */
  fetchAlertLogs(): Promise<Map<number, AlertLogEntry[]>>;
  /**
   * Stores `body` under `key` unless a (not deleted) document is already there, and returns what
   * is stored: the first node to claim a key wins (the identity module's signing keys).
   */
  claimDocument(key: DocumentKey, body: unknown): Promise<VersionedDocument>;
  /** Whether a failed write may succeed if tried again (the connection, not the data, failed). */
  isTransient(error: unknown): boolean;
  /** Reserves a block of ids of a sequence shared by every node. */
  reserveIds: ReserveIds;
}

/**
 * Where the store's documents and alert logs live. The `Store` keeps the data in memory and hands
 * each backend only what changed, one write at a time, so a write costs the same whatever other
 * users hold. Implementations: the embedded JSON files (`FileBackend`) and PostgreSQL.
 */
export interface StoreBackend {
  /** Short description for logs ("files in ./data/store"). */
  readonly description: string;
  /** Reads everything stored. */
  load(): Promise<LoadedStore>;
  /**
   * Persists one batch; resolves once it is durable. A batch holds documents or alert logs, not
   * both; at most one of each kind runs at a time, so one of documents may run beside one of alert
   * logs. A shared backend resolves to what it wrote and what conflicted.
   */
  write(batch: StoreBatch): Promise<WriteOutcome | void>;
  /**
   * Replaces everything stored by `store` (imports: a legacy file, `ovation migrate-store`); safe
   * to repeat after an interruption.
   */
  replaceAll(store: LoadedStore): Promise<void>;
  /**
   * Storage for the identity module's oidc-provider artifacts in this backend, when it keeps them
   * itself (PostgreSQL); absent, the identity module keeps them in its own files.
   */
  oidcStorage?(): OidcArtifactStorage;
  /** Present when several nodes may share the backend (PostgreSQL). */
  readonly shared?: SharedStoreBackend;
  /** Releases what the backend holds (lock, connections). */
  close(): Promise<void>;
}
