import type { NotifySub } from "@ovation/core";
import pg from "pg";
import { describe, expect, test } from "vitest";
import { freshDatabase } from "../../__tests__/services/postgres.js";
import { ALERT_LOG_LIMIT_PER_USER } from "../alert-log-events.js";
import { FileBackend } from "../file-backend.js";
import { StoreKeyValueStore } from "../key-value.js";
import { split } from "../partitions.js";
import { PostgresBackend } from "../postgres-backend.js";
import { createRepositories } from "../repositories.js";
import { Store } from "../store.js";
import { spiedStore, storeImplementations } from "./backends.js";

/** What a second opening of the same place does while the first is open, per backend. */
const secondOpening: Record<string, (place: string) => Promise<void>> = {
  // One server per data directory.
  "embedded files": (dir) => expect(FileBackend.open(dir)).rejects.toMatchObject({ code: "OVATION_ERR_STORE_LOCKED" }),
  // Several nodes share a database; only a migration (exclusive) is refused while one runs.
  PostgreSQL: async (url) => {
    const node = await Store.fromBackend(await PostgresBackend.open(url));
    await node.close();
    await expect(PostgresBackend.open(url, { mode: "exclusive" })).rejects.toMatchObject({ code: "OVATION_ERR_STORE_LOCKED", message: expect.stringContaining("running Ovation server") });
  },
};

/** The same contract, run on each backend. */
const implementations = storeImplementations().map((impl) => ({ ...impl, second: secondOpening[impl.name]! }));

function notification(id: string): NotifySub {
  return { notification: { id }, event: { data: { n: id } } } as unknown as NotifySub;
}

const command = (name: string) => ({ command: name, command_aliases: [], response: "hello", command_regex: null, permissions: 0, price: 0, send_as: "bot", enable_when: "always", user_cooldown: 0, global_cooldown: 0, is_visible: true });

describe.each(implementations)("store contract on $name", (impl) => {
  test("records of every kind survive a reopen; a second opening is refused or joins as another node", async () => {
    const place = await impl.place();
    const store = await Store.fromBackend(await impl.backend(place));
    const repos = createRepositories(store);
    const user = repos.users.create({ name: "Alice", email: "a@example.test" });
    repos.connections.upsert({ user_id: user.id, platform: "twitch", platform_user_id: "42", username: "alice" });
    const { token } = repos.tokens.create({ user_id: user.id, name: "t", scopes: ["alerts:manage"] });
    const source = repos.browserSources.findOrCreate(user.id, "alerts", null).record;
    repos.alertSets.create({ user_id: user.id, name: "Default", version: 4, config: { default: { a: 1 } } });
    repos.commands.create(user.id, command("hi"));
    repos.queueState.setPaused(user.id, true);
    repos.signingSecrets.get(user.id);
    await new StoreKeyValueStore(store).update("alice", "points", "bob", () => 7);
    repos.alertLog.append(user.id, notification("n1"), false);
    repos.alertLog.acknowledge(user.id, source.id, "n1");
    await store.persisted();
    await impl.second(place);
    const before = structuredClone(store.data);
    await store.close();

    const again = await Store.fromBackend(await impl.backend(place));
    expect(again.data).toEqual(before);
    expect(JSON.stringify(again.data)).not.toContain(token);
    // Ids go on (PostgreSQL: from a fresh block, so possibly with a gap), never back.
    expect(createRepositories(again).users.create({ name: "Bob" }).id).toBeGreaterThan(user.id);
    await again.close();
  });

  test("a write carries only the touched user's documents and one log event, whatever another user holds", async () => {
    const place = await impl.place();
    const { store, batches } = await spiedStore(await impl.backend(place));
    const repos = createRepositories(store);
    const big = repos.users.create({ name: "Big" });
    const small = repos.users.create({ name: "Small" });
    for (let i = 0; i < 30; i++) repos.commands.create(big.id, { ...command(`c${i}`), response: "y".repeat(20_000) });
    for (let i = 0; i < 30; i++) repos.alertLog.append(big.id, notification(`big${i}`), false);
    await store.persisted();
    batches.length = 0;
    repos.alertLog.append(small.id, notification("small"), false);
    await store.persisted();
    expect(batches.flatMap((b) => b.documents.map((d) => d.key))).toEqual([]);
    expect(batches.flatMap((b) => b.alertLogs.map((l) => [l.userId, l.events.map((e) => e.t)]))).toEqual([[small.id, ["add"]]]);
    await store.close();
  });

  test("the alert log is bounded per user and keeps acknowledgements and clears across a reopen", async () => {
    const place = await impl.place();
    const store = await Store.fromBackend(await impl.backend(place));
    const repos = createRepositories(store);
    const user = repos.users.create({ name: "Log" });
    for (let i = 0; i < ALERT_LOG_LIMIT_PER_USER + 20; i++) {
      repos.alertLog.append(user.id, notification(`n${i}`), false);
      if (i % 50 === 0) await store.persisted();
    }
    repos.alertLog.acknowledge(user.id, 3, `n${ALERT_LOG_LIMIT_PER_USER + 19}`);
    repos.alertLog.clear(user.id);
    repos.alertLog.append(user.id, notification("after-clear"), false);
    await store.persisted();
    const before = structuredClone(store.data.alert_log);
    expect(before[String(user.id)]).toHaveLength(ALERT_LOG_LIMIT_PER_USER);
    await store.close();
    const again = await Store.fromBackend(await impl.backend(place));
    expect(again.data.alert_log).toEqual(before);
    expect(createRepositories(again).alertLog.unacknowledged(user.id, 3, 0).map((e) => e.notification.notification.id)).toEqual(["after-clear"]);
    await again.close();
  });

  test("replaceAll then load gives back exactly what was imported", async () => {
    const source = await Store.fromBackend(await implementations[0]!.backend(await implementations[0]!.place()));
    const repos = createRepositories(source);
    for (let u = 0; u < 5; u++) {
      const user = repos.users.create({ name: `u${u}` });
      repos.commands.create(user.id, command(`c${u}`));
      repos.alertLog.append(user.id, notification(`a${u}`), u % 2 === 0);
    }
    await new StoreKeyValueStore(source).update("chan", "t", "k", () => ({ deep: [1, 2] }));
    const snapshot = split(source.data);
    await source.close();
    const backend = await impl.backend(await impl.place());
    await backend.replaceAll(snapshot);
    const loaded = await backend.load();
    expect(loaded.documents).toEqual(snapshot.documents);
    expect(loaded.alertLogs).toEqual(snapshot.alertLogs);
    await backend.close();
  });
});

describe("PostgreSQL backend specifics", () => {
  test("migrations run once and are recorded; a bad stored document is reported by key", async () => {
    const url = await freshDatabase();
    const store = await Store.fromBackend(await PostgresBackend.open(url));
    createRepositories(store).users.create({ name: "x" });
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>("select name from ovation_migrations");
      expect(rows.map((r) => r.name)).toEqual(["0001_documents_and_alert_log", "0002_oidc", "0003_several_nodes"]);
      await client.query(`insert into ovation_documents (key, body) values ('user:9', '{"user": 5}')`);
    } finally {
      await client.end();
    }
    await expect(Store.fromBackend(await PostgresBackend.open(url))).rejects.toMatchObject({ code: "OVATION_ERR_STORE_CORRUPT", message: expect.stringContaining("user:9") });
    // The failed open released the users' lock: a migration may take it.
    const reopened = await PostgresBackend.open(url, { mode: "exclusive" });
    await reopened.close();
  });

  test("no node starts on a database a migration holds", async () => {
    const url = await freshDatabase();
    const migration = await PostgresBackend.open(url, { mode: "exclusive" });
    await expect(Store.fromBackend(await PostgresBackend.open(url))).rejects.toMatchObject({ code: "OVATION_ERR_STORE_LOCKED", message: expect.stringContaining("migrate-store") });
    await migration.close();
    await (await Store.fromBackend(await PostgresBackend.open(url))).close();
  });

  test("an unreachable database is reported without its password", async () => {
    await expect(PostgresBackend.open("postgres://u:secret@127.0.0.1:1/none")).rejects.toMatchObject({
      code: "OVATION_ERR_STORE_UNUSABLE",
      message: expect.not.stringContaining("secret"),
    });
  });
});
