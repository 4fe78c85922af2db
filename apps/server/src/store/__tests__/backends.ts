import { afterAll, beforeAll } from "vitest";
import { tempDataDir } from "../../__tests__/helpers.js";
import { freshDatabase, sharedPostgres } from "../../__tests__/services/postgres.js";
import type { StoreBackend, StoreBatch } from "../backend.js";
import { FileBackend } from "../file-backend.js";
import { PostgresBackend } from "../postgres-backend.js";
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
