import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bootstrap } from "../first-run.js";
import type { StoreBackend, StoreBatch } from "../store/backend.js";
import { FileBackend } from "../store/file-backend.js";
import { PostgresBackend } from "../store/postgres-backend.js";
import { createRepositories } from "../store/repositories.js";
import { Store } from "../store/store.js";
import { tempDataDir } from "./helpers.js";
import { freshDatabase, sharedPostgres } from "./services/postgres.js";

// The first-run bootstrap runs at every start. What it remembers lives in the meta document, so a
// start writes that document only: rewriting every user's document at each start cost a node
// joining an installation of 300 channels a batch of hundreds of documents that conflicted with
// the other nodes' writes, and its start waited for it (issue 29).

interface Implementation {
  name: string;
  place(): Promise<string>;
  backend(place: string): Promise<StoreBackend>;
}

const dirs: Array<{ remove(): void }> = [];
beforeAll(() => sharedPostgres(), 120_000);
afterAll(() => dirs.forEach((d) => d.remove()));

const implementations: Implementation[] = [
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

/** A store whose backend records every batch it is asked to write. */
async function spied(backend: StoreBackend): Promise<{ store: Store; batches: StoreBatch[] }> {
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

const keys = (batches: StoreBatch[]) => batches.flatMap((b) => b.documents.map((d) => d.key));

describe.each(implementations)("first-run bootstrap on $name", (impl) => {
  test("a restart of a seeded installation writes the meta document only, and creates nothing twice", async () => {
    const place = await impl.place();
    const first = await spied(await impl.backend(place));
    const seeded = bootstrap(createRepositories(first.store));
    expect(seeded).toMatchObject({ kind: "seeded", created: ["user", "alert set", "command", "token", "browser source"] });
    const others = createRepositories(first.store);
    for (const name of ["Alice", "Bob", "Carol"]) others.users.create({ name });
    await first.store.persisted();
    await first.store.close();

    const again = await spied(await impl.backend(place));
    try {
      const repos = createRepositories(again.store);
      const restarted = bootstrap(repos);
      await again.store.persisted();
      expect(restarted).toMatchObject({ kind: "seeded", created: [], newToken: null });
      expect(keys(again.batches)).toEqual(["meta"]);
      expect(repos.users.list().map((u) => u.name)).toEqual(["streamer", "Alice", "Bob", "Carol"]);
      expect(again.store.data.meta["bootstrap"]).toEqual(first.store.data.meta["bootstrap"]);
    } finally {
      await again.store.close();
    }
  }, 60_000);

  test("an installation whose users the first start did not make gets no demo data, and only its meta document is written", async () => {
    const place = await impl.place();
    const made = await spied(await impl.backend(place));
    const repos = createRepositories(made.store);
    for (const name of ["Alice", "Bob"]) repos.users.create({ name });
    await made.store.persisted();
    made.batches.length = 0;
    const result = bootstrap(repos);
    await made.store.persisted();
    expect(result).toEqual({ kind: "existing-users", users: ["Alice", "Bob"], created: [] });
    expect(keys(made.batches)).toEqual(["meta"]);
    expect(made.store.data.meta["bootstrap"]).toEqual({ skipped: true });
    await made.store.close();
  }, 60_000);
});
