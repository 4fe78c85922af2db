import type { OidcArtifactStorage } from "./oidc-artifact-storage.js";
import type { AlertLogEvent } from "./alert-log-events.js";
import type { DocumentKey } from "./partitions.js";
import type { AlertLogEntry } from "./records.js";

/** What a backend gives back at start: every document and every user's alert log. */
export interface LoadedStore {
  documents: Map<string, unknown>;
  alertLogs: Map<number, AlertLogEntry[]>;
}

/** The changes of one write: documents to replace (`body` null: delete), alert-log events to append. */
export interface StoreBatch {
  documents: Array<{ key: DocumentKey; body: unknown }>;
  /**
   * Per user, the events to append and the user's whole log after them (a backend may rewrite the
   * log from it to keep its size bounded). Serialise `entries` before the first await: it changes.
   */
  alertLogs: Array<{ userId: number; events: AlertLogEvent[]; entries: readonly AlertLogEntry[] }>;
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
  /** Persists one batch; resolves once it is durable. Never called while a write is running. */
  write(batch: StoreBatch): Promise<void>;
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
  /** Releases what the backend holds (lock, connections). */
  close(): Promise<void>;
}
