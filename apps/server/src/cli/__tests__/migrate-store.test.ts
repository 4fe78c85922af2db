import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { NotifySub } from "@ovation/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bearer, tempDataDir, testApp } from "../../__tests__/helpers.js";
import { freshDatabase, sharedPostgres } from "../../__tests__/services/postgres.js";
import { withStoredLogs } from "../../store/__tests__/backends.js";
import { StoreKeyValueStore } from "../../store/key-value.js";
import { LEGACY_STORE_FILE } from "../../store/legacy-file.js";
import { PostgresBackend } from "../../store/postgres-backend.js";
import { createRepositories } from "../../store/repositories.js";
import { Store } from "../../store/store.js";
import { main } from "../index.js";

const dirs: Array<{ remove(): void }> = [];
afterAll(() => dirs.forEach((d) => d.remove()));
beforeAll(() => sharedPostgres(), 120_000);

function dataDir(): string {
  const d = tempDataDir();
  dirs.push(d);
  return d.dir;
}

async function cli(args: string[], env: Record<string, string>): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(args, { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) }, { OVATION_LOG_LEVEL: "silent", ...env });
  return { status, out, err };
}

/** An installation with two users, alerts, commands and key-value data. */
async function populate(dir: string): Promise<Store["data"]> {
  const store = await Store.open(dir);
  const repos = createRepositories(store);
  for (const name of ["Ann", "Ben"]) {
    const user = repos.users.create({ name });
    repos.tokens.create({ user_id: user.id, name: "t", scopes: ["alerts:manage"] });
    repos.commands.create(user.id, { command: "hi", command_aliases: ["hey"], response: "héllo ✓", command_regex: null, permissions: 0, price: 0, send_as: "bot", enable_when: "always", user_cooldown: 0, global_cooldown: 0, is_visible: true });
    for (let i = 0; i < 5; i++) repos.alertLog.append(user.id, { notification: { id: `${name}-${i}` }, event: { data: { i } } } as unknown as NotifySub, false);
    repos.alertLog.acknowledge(user.id, 1, `${name}-0`);
    await new StoreKeyValueStore(store).update(name, "points", "viewer", () => 10);
  }
  const data = structuredClone(store.data);
  await store.close();
  return data;
}

describe("ovation migrate-store --from lowdb --to postgres", () => {
  test("moves every record and verifies counts and checksums; the server then runs on PostgreSQL", async () => {
    const dir = dataDir();
    const before = await populate(dir);
    const url = await freshDatabase();
    const res = await cli(["migrate-store", "--from", "lowdb", "--to", "postgres", "--database-url", url], { OVATION_DATA_DIR: dir });
    expect(res.err).toBe("");
    expect(res.status).toBe(0);
    expect(res.out).toMatch(/documents\s+\d+ \(2 users\)/);
    expect(res.out).toMatch(/alert-log entries 10/);
    expect(res.out).toMatch(/documents sha256\s+[0-9a-f]{64}/);
    const store = await Store.openConfigured({ dataDir: dir, databaseUrl: url });
    expect(store.description).toContain("PostgreSQL");
    expect(withStoredLogs(store.data)).toEqual(withStoredLogs(before));
    await store.close();

    const app = await testApp(dir, { OVATION_DATABASE_URL: url });
    const { token } = app.ovation.repos.tokens.create({ user_id: 1, name: "api", scopes: ["alerts:manage"] });
    const posted = await app.inject({ method: "POST", url: "/v1/alerts", headers: bearer(token), payload: { template: { html: "<b>x</b>" }, data: {} } });
    expect(posted.statusCode).toBe(201);
    await app.close();
    const reread = await Store.openConfigured({ dataDir: dir, databaseUrl: url });
    expect(reread.data.alert_log["1"]).toHaveLength(6);
    await reread.close();

    const again = await cli(["migrate-store", "--from", "lowdb", "--to", "postgres"], { OVATION_DATA_DIR: dir, OVATION_DATABASE_URL: url });
    expect([again.status, again.err]).toEqual([1, expect.stringContaining("OVATION_ERR_STORE_TARGET_NOT_EMPTY")]);
    const replaced = await cli(["migrate-store", "--from", "lowdb", "--to", "postgres", "--replace"], { OVATION_DATA_DIR: dir, OVATION_DATABASE_URL: url });
    expect(replaced.status).toBe(0);
  });

  test("a legacy single-file ovation.json moves too", async () => {
    const dir = dataDir();
    const at = "2026-01-01T00:00:00.000000Z";
    writeFileSync(
      join(dir, LEGACY_STORE_FILE),
      JSON.stringify({
        schema_version: 1, sequences: { users: 1, alert_log: 1 },
        users: [{ id: 1, uuid: "u-1", name: "Old", email: null, email_verified_at: null, password_hash: null, avatar: null, created_at: at, updated_at: at }],
        connections: [], personal_access_tokens: [], browser_sources: [], alert_sets: [], commands: [],
        alert_log: [{ seq: 1, user_id: 1, notification: { notification: { id: "x" } }, test: false, logged_at: 1, acked_by: [], cleared: false }],
        queue_state: {}, extensions: {}, meta: {},
      }),
    );
    const url = await freshDatabase();
    expect((await cli(["migrate-store", "--from", "lowdb", "--to", "postgres", "--database-url", url], { OVATION_DATA_DIR: dir })).status).toBe(0);
    const backend = await PostgresBackend.open(url);
    const loaded = await backend.load();
    await backend.close();
    expect([...loaded.documents.keys()].sort()).toEqual(["meta", "user:1"]);
    expect(loaded.alertLogs.get(1)?.map((e) => e.notification_id)).toEqual(["x"]);
  });

  test("refuses a running server, an empty data directory and bad options, naming the problem", async () => {
    const dir = dataDir();
    await populate(dir);
    const url = await freshDatabase();
    const running = await Store.open(dir);
    const locked = await cli(["migrate-store", "--from", "lowdb", "--to", "postgres", "--database-url", url], { OVATION_DATA_DIR: dir });
    await running.close();
    expect([locked.status, locked.err]).toEqual([1, expect.stringContaining("Stop the server")]);
    const empty = await cli(["migrate-store", "--from", "lowdb", "--to", "postgres", "--database-url", url], { OVATION_DATA_DIR: dataDir() });
    expect([empty.status, empty.err]).toEqual([2, expect.stringContaining("holds no store")]);
    expect((await cli(["migrate-store", "--from", "mysql", "--to", "postgres"], { OVATION_DATA_DIR: dir })).err).toContain("--from must be one of lowdb");
    expect((await cli(["migrate-store", "--from", "lowdb", "--to", "postgres"], { OVATION_DATA_DIR: dir })).err).toContain("--database-url or OVATION_DATABASE_URL");
    // A database a server (node) is using is refused too: the copy would replace its data under it.
    const used = await freshDatabase();
    const node = await Store.fromBackend(await PostgresBackend.open(used));
    const inUse = await cli(["migrate-store", "--from", "lowdb", "--to", "postgres", "--database-url", used, "--replace"], { OVATION_DATA_DIR: dir });
    await node.close();
    expect([inUse.status, inUse.err]).toEqual([1, expect.stringContaining("in use by a running Ovation server")]);
    // Nothing was copied by the refused runs.
    const backend = await PostgresBackend.open(url);
    expect((await backend.load()).documents.size).toBe(0);
    await backend.close();
  });
});
