import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { NotifySub } from "@ovation/core";
import pg from "pg";
import { describe, expect, test } from "vitest";
import { freshDatabase } from "../../__tests__/services/postgres.js";
import { ALERT_LOG_LIMIT_PER_USER } from "../alert-log-events.js";
import { upgradeLoggedNotification } from "../alert-log.js";
import { FileBackend, STORE_DIR } from "../file-backend.js";
import { StoreKeyValueStore } from "../key-value.js";
import type { StoredAlertLogEvent } from "../logged-alert.js";
import { split } from "../partitions.js";
import { PostgresBackend } from "../postgres-backend.js";
import type { StoredAlertLogEntry } from "../records.js";
import { createRepositories } from "../repositories.js";
import { presentLogEntry } from "../../realtime/gateway.js";
import { Store } from "../store.js";
import { spiedStore, storeImplementations, storedLogs, withStoredLogs } from "./backends.js";

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

/**
 * The alert-log entries a backend holds as its driver reads them (the notification as an object), and
 * a way to add entries and events there as the code before the in-memory text form wrote them
 * (`JSON.stringify` of the entry), per backend.
 */
const rawLog: Record<string, { read(place: string, userId: number): Promise<StoredAlertLogEntry[]>; write(place: string, userId: number, events: ReadonlyArray<StoredAlertLogEvent>): Promise<void> }> = {
  "embedded files": {
    read: async (dir, userId) => {
      const entries = new Map<number, StoredAlertLogEntry>();
      for (const line of readFileSync(join(dir, STORE_DIR, "alerts", `${userId}.jsonl`), "utf8").split("\n")) {
        if (line === "") continue;
        const event = JSON.parse(line) as StoredAlertLogEvent;
        if (event.t === "add") entries.set(event.e.seq, event.e);
        if (event.t === "ack") entries.get(event.seq)?.acked_by.push(event.bs);
      }
      return [...entries.values()];
    },
    write: async (dir, userId, events) => appendFileSync(join(dir, STORE_DIR, "alerts", `${userId}.jsonl`), events.map((e) => `${JSON.stringify(e)}\n`).join("")),
  },
  PostgreSQL: {
    read: async (url, userId) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<{ entry: StoredAlertLogEntry }>("select entry from ovation_alert_log where user_id = $1 order by seq", [userId])).rows.map((r) => r.entry);
      } finally {
        await client.end();
      }
    },
    write: async (url, userId, events) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const e of events) if (e.t === "add") await client.query("insert into ovation_alert_log (user_id, seq, entry) values ($1, $2, $3::jsonb)", [userId, e.e.seq, JSON.stringify(e.e)]);
      } finally {
        await client.end();
      }
    },
  },
};

/** The same contract, run on each backend. */
const implementations = storeImplementations().map((impl) => ({ ...impl, second: secondOpening[impl.name]!, raw: rawLog[impl.name]! }));

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
    expect(withStoredLogs(again.data)).toEqual(withStoredLogs(before));
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
    expect(storedLogs(again.data.alert_log)).toEqual(storedLogs(before));
    expect(createRepositories(again).alertLog.unacknowledged(user.id, 3, 0).map((e) => e.notification_id)).toEqual(["after-clear"]);
    await again.close();
  });

  test("an alert log written before memory held notifications as text loads, reads as before, and is written back in its stored form", async () => {
    const place = await impl.place();
    const store = await Store.fromBackend(await impl.backend(place));
    const repos = createRepositories(store);
    const user = repos.users.create({ name: "Old" });
    const source = repos.browserSources.findOrCreate(user.id, "alerts", null).record;
    repos.alertLog.append(user.id, notification("new-1"), false, 1_000);
    await store.persisted();
    await store.close();
    // As the earlier code stored them: one in the shape before the payload moved to `event`, one
    // current with text that JSON escapes, one test alert already acknowledged.
    const condition = { platform: "twitch", platform_id: "1" };
    const old: StoredAlertLogEntry[] = [
      { seq: 90, user_id: user.id, notification: { subscription: { type: "follow", version: "1", condition }, notification: { id: "old-1", created_at: "2026-01-01T00:00:00.000000Z" }, event: { data: { name: "Zoë" }, random: 7, template: null, test: false } } as unknown as NotifySub, test: false, logged_at: 2_000, acked_by: [], cleared: false },
      { seq: 91, user_id: user.id, notification: { subscription: { type: "cheer", version: "1", condition }, notification: { id: "old-2", created_at: "2026-01-01T00:00:01.000000Z" }, event: { message: 'a "quote"\n\u2028 😀', bits: 100 }, ovation: { random: 3, template: null, test: false } }, test: false, logged_at: 3_000, acked_by: [], cleared: false },
      { seq: 92, user_id: user.id, notification: { subscription: { type: "follow", version: "1", condition }, notification: { id: "old-3", created_at: "2026-01-01T00:00:02.000000Z" }, event: { name: "T" }, ovation: { template: null, test: true } }, test: true, logged_at: 4_000, acked_by: [source.id], cleared: false },
    ];
    await impl.raw.write(place, user.id, old.map((e) => ({ t: "add", e })));
    const stored = await impl.raw.read(place, user.id);

    const again = await Store.fromBackend(await impl.backend(place));
    const log = createRepositories(again).alertLog;
    // What the API and replays show is what the earlier code showed of the same stored entries, byte for byte.
    const expected = (e: StoredAlertLogEntry) => ({ notification: upgradeLoggedNotification(e.notification) ?? e.notification, test: e.test, cleared: e.cleared, acknowledged_by: e.acked_by });
    expect(log.recent(user.id, 10).map((e) => JSON.stringify(presentLogEntry(e)))).toEqual(stored.toReversed().map((e) => JSON.stringify(expected(e))));
    expect(presentLogEntry(log.find(user.id, "old-1")!).notification.ovation).toEqual({ random: 7, template: null, test: false });
    expect(log.unacknowledged(user.id, source.id, 0).map((e) => e.notification_id)).toEqual(["new-1", "old-1", "old-2"]);
    expect(log.acknowledge(user.id, source.id, "old-2")).toBe(true);
    await again.persisted();
    await again.close();
    // Stored as before: the notification an object, untouched; only the acknowledgement added.
    const after = await impl.raw.read(place, user.id);
    expect(after.filter((e) => e.seq >= 90)).toEqual(old.map((e) => (e.seq === 91 ? { ...e, acked_by: [source.id] } : e)));
    for (const e of after) expect(Object.keys(e).sort()).toEqual(["acked_by", "cleared", "logged_at", "notification", "seq", "test", "user_id"]);
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
    expect(storedLogs(loaded.alertLogs)).toEqual(storedLogs(snapshot.alertLogs));
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
