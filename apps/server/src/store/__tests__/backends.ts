import { afterAll, beforeAll } from "vitest";
import { tempDataDir } from "../../__tests__/helpers.js";
import { freshDatabase, sharedPostgres } from "../../__tests__/services/postgres.js";
import type { StoreBackend, StoreBatch } from "../backend.js";
import { FileBackend } from "../file-backend.js";
import { storedEntry } from "../logged-alert.js";
import { PostgresBackend } from "../postgres-backend.js";
import type { AlertLogEntry, StoreData, StoredAlertLogEntry } from "../records.js";
import { Store } from "../store.js";

/** A store backend a test runs on: how to make a new, empty place (a data directory, a database) and open it. */
export interface Implementation {
  name: string;
  place(): Promise<string>;
  backend(place: string): Promise<StoreBackend>;
}

/**
 * The two backends (embedded files, PostgreSQL), for `describe.each`. Registers the file's hooks:
 * the shared PostgreSQL server before, the temporary data directories removed after.
 */
export function storeImplementations(): Implementation[] {
  const dirs: Array<{ remove(): void }> = [];
  beforeAll(() => sharedPostgres(), 120_000);
  afterAll(() => dirs.forEach((d) => d.remove()));
  return [
    {
      name: "embedded files",
      place: async () => {
        const d = tempDataDir();
        dirs.push(d);
        return d.dir;
      },
      backend: (dir) => FileBackend.open(dir),
    },
    { name: "PostgreSQL", place: () => freshDatabase(), backend: (url) => PostgresBackend.open(url) },
  ];
}

/** A store whose backend records every batch it is asked to write. */
export async function spiedStore(backend: StoreBackend): Promise<{ store: Store; batches: StoreBatch[] }> {
  const batches: StoreBatch[] = [];
  const spy: StoreBackend = {
    description: backend.description,
    load: () => backend.load(),
    write: (batch) => (batches.push(batch), backend.write(batch)),
    replaceAll: (s) => backend.replaceAll(s),
    close: () => backend.close(),
    ...(backend.shared ? { shared: backend.shared } : {}),
  };
  return { store: await Store.fromBackend(spy), batches };
}

/**
 * Alert-log entries as stored (the notification as an object), for comparing logs read back from a
 * backend with memory: PostgreSQL (jsonb) gives an object's keys back in an order of its own, so the
 * notification's text differs from memory's while the notification is the same.
 */
export function storedLogs<K>(logs: ReadonlyMap<K, readonly AlertLogEntry[]>): Map<K, StoredAlertLogEntry[]>;
export function storedLogs(logs: Readonly<Record<string, readonly AlertLogEntry[]>>): Record<string, StoredAlertLogEntry[]>;
export function storedLogs(logs: ReadonlyMap<unknown, readonly AlertLogEntry[]> | Readonly<Record<string, readonly AlertLogEntry[]>>): unknown {
  if (logs instanceof Map) return new Map([...logs].map(([key, entries]) => [key, entries.map(storedEntry)]));
  return Object.fromEntries(Object.entries(logs).map(([key, entries]) => [key, entries.map(storedEntry)]));
}

/** Store data with its alert logs as stored (see `storedLogs`). */
export function withStoredLogs(data: StoreData): Omit<StoreData, "alert_log"> & { alert_log: Record<string, StoredAlertLogEntry[]> } {
  return { ...data, alert_log: storedLogs(data.alert_log) };
}
