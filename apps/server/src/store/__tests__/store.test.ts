import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { NotifySub } from "@ovation/core";
import { afterAll, describe, expect, test } from "vitest";
import { tempDataDir } from "../../__tests__/helpers.js";
import { ALERT_LOG_LIMIT_PER_USER } from "../alert-log-events.js";
import type { StoreBackend, StoreBatch } from "../backend.js";
import { ALERT_LOG_COMPACT_AT, FileBackend, STORE_DIR } from "../file-backend.js";
import { StoreKeyValueStore } from "../key-value.js";
import { LEGACY_BACKUP_FILE, LEGACY_STORE_FILE } from "../legacy-file.js";
import { createRepositories } from "../repositories.js";
import { loggedNotification } from "../logged-alert.js";
import type { StoredAlertLogEntry } from "../records.js";
import { LOCK_FILE, Store, readStoredData } from "../store.js";
import { storedLogs } from "./backends.js";

const dirs: Array<{ remove(): void }> = [];
const dir = () => {
  const d = tempDataDir();
  dirs.push(d);
  return d.dir;
};
afterAll(() => dirs.forEach((d) => d.remove()));

function notification(id: string, size = 10): NotifySub {
  return { notification: { id }, event: { data: { blob: "x".repeat(size) } } } as unknown as NotifySub;
}

/** A file backend that records every batch it is given. */
async function spiedStore(path: string): Promise<{ store: Store; batches: StoreBatch[] }> {
  const inner = await FileBackend.open(path);
  const batches: StoreBatch[] = [];
  const spy: StoreBackend = {
    description: inner.description,
    load: () => inner.load(),
    write: (batch) => {
      batches.push(batch);
      return inner.write(batch);
    },
    replaceAll: (s) => inner.replaceAll(s),
    close: () => inner.close(),
  };
  return { store: await Store.fromBackend(spy), batches };
}

describe("Store", () => {
  test("changes reach the files once persisted, and survive a reopen", async () => {
    const path = dir();
    const store = await Store.open(path);
    const repos = createRepositories(store);
    const user = repos.users.create({ name: "Alice" });
    await store.persisted();
    expect(JSON.parse(readFileSync(join(path, STORE_DIR, "users", `${user.id}.json`), "utf8")).user.name).toBe("Alice");
    await store.close();
    const again = await Store.open(path);
    expect(createRepositories(again).users.get(user.id)?.uuid).toBe(user.uuid);
    await again.close();
  });

  test("close writes a change nobody waited for (graceful shutdown flushes the store)", async () => {
    const path = dir();
    const store = await Store.open(path);
    const user = createRepositories(store).users.create({ name: "Unwaited" });
    await store.close();
    expect(readStoredData(path).users.map((u) => u.uuid)).toEqual([user.uuid]);
  });

  test("one process at a time: a second open is refused until the first closes; a stale lock is taken over", async () => {
    const path = dir();
    const store = await Store.open(path);
    await expect(Store.open(path)).rejects.toMatchObject({ code: "OVATION_ERR_STORE_LOCKED" });
    await store.close();
    writeFileSync(join(path, LOCK_FILE), "999999999");
    const next = await Store.open(path);
    expect(readFileSync(join(path, LOCK_FILE), "utf8")).toBe(String(process.pid));
    await next.close();
  });

  test("a data directory that is a file, or cannot be written, is reported by name", async () => {
    const file = join(dir(), "not-a-directory");
    writeFileSync(file, "x");
    await expect(Store.open(file)).rejects.toMatchObject({ code: "OVATION_ERR_STORE_UNUSABLE", message: expect.stringContaining(`${file} (OVATION_DATA_DIR) cannot be used`) });
    await expect(Store.open(join(file, "below"))).rejects.toMatchObject({ code: "OVATION_ERR_STORE_UNUSABLE" });
    expect(readFileSync(file, "utf8")).toBe("x");
  });

  test("a corrupt document or log is reported by name and left untouched; the lock is released", async () => {
    const cases: Array<[string, string]> = [
      [join("users", "1.json"), "{not json"],
      [join("users", "2.json"), JSON.stringify({ user: "nope" })],
      ["meta.json", JSON.stringify({ schema_version: 9 })],
      [join("alerts", "3.jsonl"), "{bad\n{}\n"],
    ];
    for (const [file, content] of cases) {
      const path = dir();
      mkdirSync(join(path, STORE_DIR, "users"), { recursive: true });
      mkdirSync(join(path, STORE_DIR, "alerts"), { recursive: true });
      writeFileSync(join(path, STORE_DIR, file), content);
      await expect(Store.open(path)).rejects.toMatchObject({ code: "OVATION_ERR_STORE_CORRUPT" });
      expect(readFileSync(join(path, STORE_DIR, file), "utf8")).toBe(content);
      expect(existsSync(join(path, LOCK_FILE))).toBe(false);
    }
  });

  test("many updates in one turn are written together and all kept", async () => {
    const path = dir();
    const { store, batches } = await spiedStore(path);
    const repos = createRepositories(store);
    const before = batches.length;
    for (let i = 0; i < 200; i++) repos.users.create({ name: `user${i}` });
    await store.persisted();
    expect(batches.length - before).toBe(1);
    expect(readStoredData(path).users).toHaveLength(200);
    await store.close();
  });

  test("personal access tokens keep only the hash; extensions keep other modules' data; files are 0600", async () => {
    const path = dir();
    const store = await Store.open(path);
    const repos = createRepositories(store);
    const user = repos.users.create({ name: "Bob" });
    const { token, record } = repos.tokens.create({ user_id: user.id, name: "t", scopes: ["alerts:manage", "alerts:manage"] });
    expect(record.scopes).toEqual(["alerts:manage"]);
    const ext = store.extension<{ n: number }>("test", () => ({ n: 0 }));
    ext.update((v) => (v.n += 2));
    await store.persisted();
    const userFile = join(path, STORE_DIR, "users", `${user.id}.json`);
    expect(readFileSync(userFile, "utf8")).not.toContain(token);
    expect(readStoredData(path).extensions["test"]).toEqual({ n: 2 });
    expect(statSync(userFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, STORE_DIR)).mode & 0o777).toBe(0o700);
    await store.close();
  });

  test("a write touches only its own user's documents, whatever another user holds", async () => {
    const path = dir();
    const { store, batches } = await spiedStore(path);
    const repos = createRepositories(store);
    const big = repos.users.create({ name: "Big" });
    const small = repos.users.create({ name: "Small" });
    for (let i = 0; i < 20; i++) repos.commands.create(big.id, { command: `c${i}`, command_aliases: [], response: "y".repeat(100_000), command_regex: null, permissions: 0, price: 0, send_as: "bot", enable_when: "always", user_cooldown: 0, global_cooldown: 0, is_visible: true });
    for (let i = 0; i < 20; i++) repos.alertLog.append(big.id, notification(`big-${i}`, 100_000), false);
    await store.persisted();
    const kv = new StoreKeyValueStore(store);
    await kv.update("big-channel", "points", "viewer", () => 1);
    await store.persisted();

    batches.length = 0;
    repos.alertLog.append(small.id, notification("small-1"), false);
    repos.commands.create(small.id, { command: "hi", command_aliases: [], response: "hello", command_regex: null, permissions: 0, price: 0, send_as: "bot", enable_when: "always", user_cooldown: 0, global_cooldown: 0, is_visible: true });
    await kv.update("small-channel", "points", "viewer", () => 2);
    await store.persisted();
    const documents = batches.flatMap((b) => b.documents.map((d) => d.key));
    // A viewer table (points) is kept in chunks (key-value.ts): only the channel's first chunk is written.
    expect(new Set(documents)).toEqual(new Set(["meta", `user:${small.id}`, "kvv:small-channel/points/0"]));
    // An alert alone writes no document, only its log line.
    batches.length = 0;
    repos.alertLog.append(small.id, notification("small-2"), false);
    await store.persisted();
    expect(batches.flatMap((b) => b.documents)).toEqual([]);
    expect(batches.flatMap((b) => b.alertLogs.map((l) => [l.userId, l.events.length]))).toEqual([[small.id, 1]]);
    const written = batches.flatMap((b) => b.documents).reduce((n, d) => n + JSON.stringify(d.body).length, 0);
    expect(written).toBeLessThan(5_000);
    await store.close();
  });

  test("the bot modules keep each user's timers, goal bars and state in that user's own documents", async () => {
    const path = dir();
    const { store, batches } = await spiedStore(path);
    const repos = createRepositories(store);
    const big = repos.users.create({ name: "Big" });
    const small = repos.users.create({ name: "Small" });
    for (let i = 0; i < 2_000; i++) repos.botState.addFollower(big.id, "twitch", `follower-${i}`);
    repos.timers.create(big.id, { name: "big" } as unknown as Parameters<typeof repos.timers.create>[1]);
    await store.persisted();

    batches.length = 0;
    repos.botState.addFollower(small.id, "twitch", "one");
    repos.botState.saveModeration(small.id, { enabled: true } as unknown as Parameters<typeof repos.botState.saveModeration>[1]);
    const timer = repos.timers.create(small.id, { name: "small" } as unknown as Parameters<typeof repos.timers.create>[1]);
    repos.goalBars.create(small.id, { title: "g", current: 0 } as unknown as Parameters<typeof repos.goalBars.create>[1]);
    await store.persisted();
    const documents = new Set(batches.flatMap((b) => b.documents.map((d) => d.key)));
    // Creating a record also bumps its kind's id sequence, in the meta document (a few bytes); a
    // follow writes the one bucket of followers it falls in.
    const bucket = [...documents].find((key) => key.startsWith("ext:followers."));
    expect(bucket).toMatch(new RegExp(`^ext:followers\\.\\d+\\.${small.id}$`));
    expect(documents).toEqual(new Set([`ext:bot_state.${small.id}`, bucket, `ext:timers.${small.id}`, `ext:goal_bars.${small.id}`, "meta"]));
    expect(batches.flatMap((b) => b.documents).reduce((n, d) => n + JSON.stringify(d.body).length, 0)).toBeLessThan(2_000);

    batches.length = 0;
    repos.botState.addFollower(small.id, "twitch", "two");
    repos.timers.update(small.id, timer.id, (t) => void (t.name = "renamed"));
    await store.persisted();
    const keys = batches.flatMap((b) => b.documents.map((d) => d.key));
    expect(keys.filter((key) => !key.startsWith("ext:followers."))).toEqual([`ext:timers.${small.id}`]);
    expect(keys.filter((key) => key.startsWith("ext:followers.")).every((key) => key.endsWith(`.${small.id}`))).toBe(true);
    expect([repos.botState.isFollower(big.id, "twitch", "follower-1999"), repos.botState.isFollower(small.id, "twitch", "follower-1")]).toEqual([true, false]);
    expect(repos.timers.listAll().map((t) => [t.user_id, t.name])).toEqual([
      [big.id, "big"],
      [small.id, "renamed"],
    ]);
    expect(repos.timers.getForUser(big.id, timer.id)).toBeNull();
    await store.close();
  });

  test("shared bot-module and first-join documents of an older store are split per user at start, losing nothing", async () => {
    const path = dir();
    const first = await Store.open(path);
    const timer = (id: number, userId: number) => ({ id, user_id: userId, name: `t${id}`, created_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-01T00:00:00.000Z" });
    first.extension("timers", () => ({})).update((t) => Object.assign(t, { next_id: 4, records: [timer(1, 7), timer(2, 8), timer(3, 7)] }));
    first.extension("goal_bars", () => ({})).update((g) => Object.assign(g, { next_id: 2, records: [{ ...timer(1, 8), current: 5 }] }));
    first.extension("bot_state", () => ({})).update((b) =>
      Object.assign(b, {
        giveaways: { "7": { open: true } },
        moderation: { "8": { enabled: true } },
        settings: { "7": { prefix: "!" } },
        followers: { "7": { "twitch:a": "2026-01-01T00:00:00.000Z" }, "8": { "twitch:b": "2026-01-02T00:00:00.000Z" } },
      }),
    );
    const firstRepos = createRepositories(first);
    const owner = firstRepos.users.create({ name: "Owner" });
    const source = firstRepos.browserSources.findOrCreate(owner.id, "alerts", "scene").record;
    first.extension("browser_source_first_joined", () => ({})).update((j) => Object.assign(j, { [String(source.id)]: 1234, "999": 5678 }));
    await first.close();

    const store = await Store.open(path);
    const repos = createRepositories(store);
    await store.persisted();
    expect(repos.browserSourceJoins.firstJoined(owner.id, source.id)).toBe(1234);
    expect(repos.timers.listForUser(7).map((t) => t.id)).toEqual([1, 3]);
    expect(repos.timers.listForUser(8).map((t) => t.name)).toEqual(["t2"]);
    expect(repos.goalBars.getForUser(8, 1)?.current).toBe(5);
    expect(repos.botState.giveaway(7)).toEqual({ open: true });
    expect(repos.botState.moderation(8)).toEqual({ enabled: true });
    expect(repos.botState.settings(7)).toEqual({ prefix: "!" });
    expect([repos.botState.isFollower(7, "twitch", "a"), repos.botState.isFollower(8, "twitch", "b"), repos.botState.isFollower(8, "twitch", "a")]).toEqual([true, true, false]);
    // New ids continue the old sequence; the shared documents are gone (only the sequences stay).
    expect(repos.timers.create(8, { name: "new" } as unknown as Parameters<typeof repos.timers.create>[1]).id).toBe(4);
    await store.close();
    const stored = readStoredData(path);
    expect([stored.extensions.bot_state, stored.extensions.browser_source_first_joined]).toEqual([undefined, undefined]);
    expect(stored.extensions[`browser_source_first_joined.${owner.id}`]).toEqual({ [String(source.id)]: 1234 });
    expect(stored.sequences["timers"]).toBe(4);
    expect(stored.extensions["timers.7"]).toHaveLength(2);
    // Followers then moved out of the user's document into their buckets.
    expect(stored.extensions["bot_state.8"]).toMatchObject({ moderation: { enabled: true }, followers: {} });
    expect(Object.entries(stored.extensions).filter(([key]) => key.startsWith("followers.") && key.endsWith(".8")).map(([, bucket]) => bucket)).toEqual([{ "twitch:b": "2026-01-02T00:00:00.000Z" }]);
  });

  test("the alert log is appended, bounded per user, compacted, and read back with acks and clears", async () => {
    const path = dir();
    const store = await Store.open(path);
    const repos = createRepositories(store);
    const user = repos.users.create({ name: "Logger" });
    const other = repos.users.create({ name: "Other" });
    repos.alertLog.append(other.id, notification("other"), false);
    const total = ALERT_LOG_COMPACT_AT + 50;
    for (let i = 0; i < total; i++) {
      repos.alertLog.append(user.id, notification(`n${i}`), i % 2 === 0);
      if (i % 100 === 0) await store.persisted();
    }
    expect(repos.alertLog.acknowledge(user.id, 7, `n${total - 1}`)).toBe(true);
    expect(repos.alertLog.acknowledge(user.id, 7, `n${total - 1}`)).toBe(false);
    expect(repos.alertLog.acknowledge(user.id, 7, "n0")).toBe(false);
    await store.persisted();
    const file = join(path, STORE_DIR, "alerts", `${user.id}.jsonl`);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(ALERT_LOG_COMPACT_AT);
    expect(repos.alertLog.recent(user.id, 10_000)).toHaveLength(ALERT_LOG_LIMIT_PER_USER);
    expect(repos.alertLog.clear(other.id)).toBe(1);
    expect(repos.alertLog.clear(other.id)).toBe(0);
    const before = structuredClone(store.data.alert_log);
    await store.close();

    const again = await Store.open(path);
    expect(again.data.alert_log).toEqual(before);
    const againRepos = createRepositories(again);
    expect(againRepos.alertLog.find(user.id, `n${total - 1}`)?.acked_by).toEqual([7]);
    expect(againRepos.alertLog.recent(other.id, 5).map((e) => e.cleared)).toEqual([true]);
    expect(againRepos.alertLog.realNotificationIds().filter((n) => n.userId === user.id)).toHaveLength(ALERT_LOG_LIMIT_PER_USER / 2);
    // New alerts keep unique sequence numbers after a reopen.
    const next = againRepos.alertLog.append(user.id, notification("after"), false);
    expect(next.seq).toBeGreaterThan(Math.max(...Object.values(before).flat().map((e) => e.seq)));
    await again.close();
  });

  test("a torn last line of an alert log (crash during an append) is dropped and the file repaired", async () => {
    const path = dir();
    const store = await Store.open(path);
    const repos = createRepositories(store);
    const user = repos.users.create({ name: "Torn" });
    repos.alertLog.append(user.id, notification("kept"), false);
    await store.close();
    const file = join(path, STORE_DIR, "alerts", `${user.id}.jsonl`);
    writeFileSync(file, `${readFileSync(file, "utf8")}{"t":"add","e":{"seq":99`);
    const again = await Store.open(path);
    expect(createRepositories(again).alertLog.recent(user.id, 10).map((e) => e.notification_id)).toEqual(["kept"]);
    expect(readFileSync(file, "utf8").endsWith("\n")).toBe(true);
    createRepositories(again).alertLog.append(user.id, notification("later"), false);
    await again.close();
    expect(Object.values(readStoredData(path).alert_log).flat().map((e) => e.notification_id)).toEqual(["kept", "later"]);
  });

  test("key-value channels are documents of their own; hostile channel names stay inside the store", async () => {
    const path = dir();
    const store = await Store.open(path);
    const kv = new StoreKeyValueStore(store);
    await kv.update("../../escape", "t", "k", () => "v");
    await kv.update("plain", "t", "n", () => 3);
    await store.close();
    expect(readdirSync(join(path, STORE_DIR, "kv"))).toHaveLength(2);
    expect(readdirSync(path).sort()).toEqual([STORE_DIR]);
    const again = await Store.open(path);
    expect(await new StoreKeyValueStore(again).table("../../escape", "t")).toEqual({ k: "v" });
    expect(await new StoreKeyValueStore(again).table("plain", "t")).toEqual({ n: 3 });
    await again.close();
  });
});

describe("migrating a single-file ovation.json", () => {
  function legacyStore(): Record<string, unknown> {
    const at = "2026-01-01T00:00:00.000000Z";
    const user = (id: number, name: string) => ({ id, uuid: `uuid-${id}`, name, email: null, email_verified_at: null, password_hash: null, avatar: null, created_at: at, updated_at: at });
    const entry = (seq: number, userId: number, id: string) => ({ seq, user_id: userId, notification: notification(id), test: false, logged_at: seq, acked_by: seq === 2 ? [1] : [], cleared: seq === 1 });
    return {
      schema_version: 1,
      sequences: { users: 2, connections: 1, personal_access_tokens: 1, browser_sources: 1, alert_sets: 1, commands: 1, alert_log: 3 },
      users: [user(1, "One"), user(2, "Two")],
      connections: [{ id: 1, user_id: 2, platform: "twitch", platform_user_id: "42", username: "two", avatar_url: null, created_at: at, updated_at: at }],
      personal_access_tokens: [{ id: 1, user_id: 1, name: "t", scopes: ["alerts:manage"], token_hash: "abc", created_at: at, expires_at: at, revoked_at: null }],
      browser_sources: [{ id: 1, user_id: 1, identifier: null, browser_source_type: "alerts", access_token: "tok", created_at: at, updated_at: at }],
      alert_sets: [{ id: 1, user_id: 1, name: "Default", version: 4, active: true, config: { default: {} }, created_at: at, updated_at: at }],
      commands: [{ id: 1, user_id: 2, command: "hi", command_aliases: [], response: "hello", command_regex: null, permissions: 0, price: 0, send_as: "bot", enable_when: "always", user_cooldown: 0, global_cooldown: 0, is_visible: true, created_at: at, updated_at: at }],
      alert_log: [entry(1, 1, "a"), entry(2, 2, "b"), entry(3, 1, "c")],
      queue_state: { "1": { paused: true } },
      extensions: { kv: { chan: { points: { v: 5 } } }, bot_signing_secrets: { "1": "ovsig_x" } },
      meta: { bootstrap: { done: true } },
    };
  }

  test("every record moves to the new layout, the old file is kept as a backup, and a second start does nothing", async () => {
    const path = dir();
    const legacy = legacyStore();
    writeFileSync(join(path, LEGACY_STORE_FILE), JSON.stringify(legacy));
    const store = await Store.open(path);
    const data = store.data;
    for (const table of ["users", "connections", "personal_access_tokens", "browser_sources", "alert_sets", "commands"]) {
      expect(data[table as keyof typeof data], table).toEqual(legacy[table]);
    }
    expect(data.queue_state).toEqual(legacy["queue_state"]);
    expect(data.extensions).toEqual(legacy["extensions"]);
    expect(data.meta).toEqual(legacy["meta"]);
    expect(data.sequences).toEqual(legacy["sequences"]);
    const log = legacy["alert_log"] as StoredAlertLogEntry[];
    expect(storedLogs(data.alert_log)).toEqual({ "1": [log[0], log[2]], "2": [log[1]] });
    // Held as text in memory, written in the stored form: the new layout's log lines are the old entries.
    expect(loggedNotification(data.alert_log["1"]![1]!)).toEqual(log[2]!.notification);
    expect(readFileSync(join(path, STORE_DIR, "alerts", "1.jsonl"), "utf8")).toBe(`${JSON.stringify({ t: "add", e: log[0] })}\n${JSON.stringify({ t: "add", e: log[2] })}\n`);
    expect(existsSync(join(path, LEGACY_STORE_FILE))).toBe(false);
    expect(JSON.parse(readFileSync(join(path, LEGACY_BACKUP_FILE), "utf8"))).toEqual(legacy);
    expect(statSync(join(path, LEGACY_BACKUP_FILE)).mode & 0o777).toBe(0o600);
    const repos = createRepositories(store);
    expect(repos.users.create({ name: "Three" }).id).toBe(3);
    await store.close();
    const again = await Store.open(path);
    expect(again.data.users.map((u) => u.name)).toEqual(["One", "Two", "Three"]);
    await again.close();
  });

  test("an interrupted migration is done again; a leftover file after a finished one is only renamed", async () => {
    const path = dir();
    const legacy = legacyStore();
    writeFileSync(join(path, LEGACY_STORE_FILE), JSON.stringify(legacy));
    // A migration cut off after some documents: no meta document yet.
    mkdirSync(join(path, STORE_DIR, "users"), { recursive: true });
    writeFileSync(join(path, STORE_DIR, "users", "1.json"), JSON.stringify({ user: null, queue_state: null, connections: [], personal_access_tokens: [], browser_sources: [], alert_sets: [], commands: [] }));
    const store = await Store.open(path);
    expect(store.data.users.map((u) => u.name)).toEqual(["One", "Two"]);
    createRepositories(store).users.update(1, { name: "Renamed" });
    await store.close();
    writeFileSync(join(path, LEGACY_STORE_FILE), JSON.stringify(legacy));
    const again = await Store.open(path);
    expect(again.data.users.map((u) => u.name)).toEqual(["Renamed", "Two"]);
    expect(existsSync(join(path, LEGACY_STORE_FILE))).toBe(false);
    await again.close();
  });

  test("a corrupt single file is reported and left untouched", async () => {
    for (const content of ["{not json", JSON.stringify({ schema_version: 9 }), "[]"]) {
      const path = dir();
      writeFileSync(join(path, LEGACY_STORE_FILE), content);
      await expect(Store.open(path)).rejects.toMatchObject({ code: "OVATION_ERR_STORE_CORRUPT" });
      expect(readFileSync(join(path, LEGACY_STORE_FILE), "utf8")).toBe(content);
    }
  });
});
