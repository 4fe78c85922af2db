import { describe, expect, test } from "vitest";
import { bootstrap } from "../first-run.js";
import type { StoreBatch } from "../store/backend.js";
import { createRepositories } from "../store/repositories.js";
import { spiedStore, storeImplementations } from "../store/__tests__/backends.js";

// The first-run bootstrap runs at every start. What it remembers lives in the meta document, so a
// start writes that document only, and only when what it remembers changed: rewriting every user's
// document at each start cost a node joining an installation of 300 channels a batch of hundreds of
// documents that conflicted with the other nodes' writes, and its start waited for it (issue 29);
// rewriting an unchanged meta document made every node's start write the one row all nodes share
// (issue 25).

const implementations = storeImplementations();

const keys = (batches: StoreBatch[]) => batches.flatMap((b) => b.documents.map((d) => d.key));

describe.each(implementations)("first-run bootstrap on $name", (impl) => {
  test("a restart of a seeded installation writes nothing, and creates nothing twice", async () => {
    const place = await impl.place();
    const first = await spiedStore(await impl.backend(place));
    const seeded = bootstrap(createRepositories(first.store));
    expect(seeded).toMatchObject({ kind: "seeded", created: ["user", "alert set", "command", "token", "browser source"] });
    const others = createRepositories(first.store);
    for (const name of ["Alice", "Bob", "Carol"]) others.users.create({ name });
    await first.store.persisted();
    await first.store.close();

    const again = await spiedStore(await impl.backend(place));
    try {
      const repos = createRepositories(again.store);
      const restarted = bootstrap(repos);
      await again.store.persisted();
      expect(restarted).toMatchObject({ kind: "seeded", created: [], newToken: null });
      expect(keys(again.batches)).toEqual([]);
      expect(repos.users.list().map((u) => u.name)).toEqual(["streamer", "Alice", "Bob", "Carol"]);
      expect(again.store.data.meta["bootstrap"]).toEqual(first.store.data.meta["bootstrap"]);
    } finally {
      await again.store.close();
    }
  }, 60_000);

  test("an installation whose users the first start did not make gets no demo data, and only its meta document is written", async () => {
    const place = await impl.place();
    const made = await spiedStore(await impl.backend(place));
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
