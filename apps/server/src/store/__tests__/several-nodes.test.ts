import type { NotifySub } from "@ovation/core";
import pg from "pg";
import { pino } from "pino";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { freshDatabase, sharedPostgres } from "../../__tests__/services/postgres.js";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { RealtimeGateway } from "../../realtime/gateway.js";
import { COUNTERS_TABLE } from "../counters.js";
import type { StoreBackend } from "../backend.js";
import { PostgresBackend } from "../postgres-backend.js";
import { compactEntry } from "../logged-alert.js";
import type { AlertLogEntry, StoredAlertLogEntry } from "../records.js";
import { createRepositories } from "../repositories.js";
import type { Repositories } from "../repositories.js";
import { Store } from "../store.js";

const silent = pino({ level: "silent" });
const command = (name: string) => ({ command: name, command_aliases: [], response: "hello", command_regex: null, permissions: 0, price: 0, send_as: "bot", enable_when: "always", user_cooldown: 0, global_cooldown: 0, is_visible: true });

interface Node {
  store: Store;
  backend: PostgresBackend;
  repos: Repositories;
}

const open: Store[] = [];
beforeAll(() => sharedPostgres(), 120_000);
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A "node": a store of its own on the shared database, as a second server process would have. */
async function node(url: string, options: { listenRetryMs?: number } = {}): Promise<Node> {
  const backend = await PostgresBackend.open(url, { logger: silent, ...options });
  const store = await Store.fromBackend(backend, { logger: silent });
  open.push(store);
  return { store, backend, repos: createRepositories(store) };
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

function alert(hub: RealtimeGateway, userId: number, id: string, test = false) {
  return hub.publish({ userId, type: "follow", platform: "twitch", platformId: "1", event: { name: id }, template: null, test, notificationId: id });
}

describe("several nodes on one PostgreSQL database", () => {
  test("a write on one node is applied on the other: records, key-value, deletions", async () => {
    const url = await freshDatabase();
    const [a, b] = [await node(url), await node(url)];
    const user = a.repos.users.create({ name: "Alice", email: "alice@example.test" });
    const created = a.repos.commands.create(user.id, command("hi"));
    await a.repos.kv.update(String(user.id), "points", "bob", () => 7);
    await a.store.persisted();
    await waitFor(() => b.repos.commands.listForUser(user.id).length === 1 && b.repos.users.get(user.id) !== null, 10_000, "node B to see the user and command");
    expect(b.repos.commands.listForUser(user.id)[0]).toEqual(a.repos.commands.listForUser(user.id)[0]);
    await waitFor(() => b.repos.kv.channelTables(String(user.id))["points"]?.["bob"] === 7, 10_000, "node B to see the key-value write");

    expect(b.repos.commands.remove(user.id, created.id)).toBe(true);
    await b.store.persisted();
    await waitFor(() => a.repos.commands.listForUser(user.id).length === 0, 10_000, "node A to see the deletion");
  });

  test("an alert logged on one node is in the other's log, de-duplication memory and acknowledgements", async () => {
    const url = await freshDatabase();
    const [a, b] = [await node(url), await node(url)];
    const hubA = new RealtimeGateway(a.repos, silent);
    const hubB = new RealtimeGateway(b.repos, silent);
    const user = a.repos.users.create({ name: "Streamer" });
    const source = a.repos.browserSources.findOrCreate(user.id, "alerts", null).record;
    expect((await alert(hubA, user.id, "tw-1")).duplicate).toBe(false);
    await a.store.persisted();
    await waitFor(() => b.repos.alertLog.find(user.id, "tw-1") !== undefined, 10_000, "node B to log the alert");
    // Sent again to node B (a platform retry), it is a duplicate there too.
    const again = await alert(hubB, user.id, "tw-1");
    expect(again.duplicate).toBe(true);
    expect(again.notification.notification.id).toBe("tw-1");
    expect(b.repos.alertLog.unacknowledged(user.id, source.id, 0).map((e) => e.notification_id)).toEqual(["tw-1"]);

    expect(a.repos.alertLog.acknowledge(user.id, source.id, "tw-1")).toBe(true);
    await a.store.persisted();
    await waitFor(() => b.repos.alertLog.unacknowledged(user.id, source.id, 0).length === 0, 10_000, "node B to see the acknowledgement");

    // Alerts from both nodes end up in both logs, in time order.
    alert(hubB, user.id, "tw-2");
    await b.store.persisted();
    await waitFor(() => a.repos.alertLog.find(user.id, "tw-2") !== undefined, 10_000, "node A to log node B's alert");
    alert(hubA, user.id, "tw-3");
    await a.store.persisted();
    await waitFor(() => b.repos.alertLog.find(user.id, "tw-3") !== undefined, 10_000, "node B to log node A's alert");
    const ids = (r: Repositories) => r.alertLog.recent(user.id, 10).map((e) => e.notification_id);
    expect(ids(a.repos)).toEqual(["tw-3", "tw-2", "tw-1"]);
    expect(ids(b.repos)).toEqual(ids(a.repos));
  });

  test("alerts, acknowledgements and a clear written in one batch are stored as they were made, each acknowledgement once", async () => {
    const url = await freshDatabase();
    const [a, b] = [await node(url), await node(url)];
    const user = a.repos.users.create({ name: "Streamer" });
    const sources = [1, 2, 3].map((i) => a.repos.browserSources.findOrCreate(user.id, "alerts", `s${i}`).record.id);
    const [s1, s2, s3] = sources as [number, number, number];
    await a.store.persisted();
    // Made synchronously, so one write carries them all: 3 alerts, a clear, 2 more, acknowledgements of
    // old and new entries (two sources on one entry), and node B's acknowledgement of an entry node A acknowledges too.
    // Names with quotes, backslashes, braces and characters beyond ASCII: the entries travel inside one JSON text.
    const name = (id: string) => `${id} "quoted" \\ back\\slash {x: [1]} é 😀`;
    const note = (id: string): NotifySub => ({ subscription: { type: "follow", version: "1", condition: { platform: "twitch", platform_id: "1" } }, notification: { id, created_at: "" }, event: { name: name(id) } });
    for (const id of ["a1", "a2", "a3"]) a.repos.alertLog.append(user.id, note(id), false);
    await a.store.persisted();
    await waitFor(() => b.repos.alertLog.find(user.id, "a3") !== undefined, 10_000, "node B to log the first alerts");
    expect(b.repos.alertLog.acknowledge(user.id, s3, "a1")).toBe(true);
    await b.store.persisted();
    a.repos.alertLog.append(user.id, note("b1"), false);
    a.repos.alertLog.clear(user.id);
    a.repos.alertLog.append(user.id, note("c1"), false);
    a.repos.alertLog.append(user.id, note("c2"), false);
    expect(a.repos.alertLog.acknowledge(user.id, s2, "c1")).toBe(true);
    expect(a.repos.alertLog.acknowledge(user.id, s1, "c1")).toBe(true);
    expect(a.repos.alertLog.acknowledge(user.id, s1, "a2")).toBe(true);
    // Node A may not have applied node B's acknowledgement yet: its own of a1 by s3 is then in this batch too.
    a.repos.alertLog.acknowledge(user.id, s3, "a1");
    await a.store.persisted();
    const rows = await query<{ entry: { notification: NotifySub; acked_by: number[]; cleared: boolean } }>(url, "select entry from ovation_alert_log where user_id = $1 order by seq", [user.id]);
    expect(rows.map((r) => r.entry.notification.event)).toEqual(["a1", "a2", "a3", "b1", "c1", "c2"].map((id) => ({ name: name(id) })));
    const stored = Object.fromEntries(rows.map((r) => [r.entry.notification.notification.id, { acked_by: r.entry.acked_by, cleared: r.entry.cleared }]));
    expect(stored).toEqual({
      a1: { acked_by: [s3], cleared: true },
      a2: { acked_by: [s1], cleared: true },
      a3: { acked_by: [], cleared: true },
      b1: { acked_by: [], cleared: true },
      c1: { acked_by: [s2, s1], cleared: false },
      c2: { acked_by: [], cleared: false },
    });
    // Node B applies the same, and its log matches what is stored.
    await waitFor(() => b.repos.alertLog.find(user.id, "c1")?.acked_by.length === 2 && b.repos.alertLog.find(user.id, "a2")?.acked_by.length === 1, 10_000, "node B to apply the batch");
    const view = (r: Repositories) => Object.fromEntries(r.alertLog.recent(user.id, 10).map((e) => [e.notification_id, { acked_by: e.acked_by, cleared: e.cleared }]));
    expect(view(b.repos)).toEqual(stored);
    expect(view(a.repos)).toEqual(stored);
    // A write of acknowledgements only (one statement): two sources on one entry, each stored once.
    expect(b.repos.alertLog.acknowledge(user.id, s3, "c2")).toBe(true);
    expect(b.repos.alertLog.acknowledge(user.id, s1, "c2")).toBe(true);
    expect(b.repos.alertLog.acknowledge(user.id, s1, "c1")).toBe(false);
    await b.store.persisted();
    const c2 = await query<{ entry: { acked_by: number[] } }>(url, "select entry from ovation_alert_log where user_id = $1 and entry->'notification'->'notification'->>'id' in ('c1', 'c2') order by seq", [user.id]);
    expect(c2.map((r) => r.entry.acked_by)).toEqual([[s2, s1], [s3, s1]]);
    await waitFor(() => a.repos.alertLog.find(user.id, "c2")?.acked_by.length === 2, 10_000, "node A to apply the acknowledgements");
    expect(a.repos.alertLog.find(user.id, "c2")?.acked_by).toEqual([s3, s1]);
  });

  test("the other node's listeners hear of each alert logged and each acknowledgement once, however the writes and reads interleave", async () => {
    const url = await freshDatabase();
    const [a, b] = [await node(url), await node(url)];
    const user = a.repos.users.create({ name: "Streamer" });
    const [s1, s2] = [1, 2].map((i) => a.repos.browserSources.findOrCreate(user.id, "alerts", `s${i}`).record.id) as [number, number];
    await a.store.persisted();
    await waitFor(() => b.repos.users.get(user.id) !== null, 10_000, "node B to see the user");
    const heard: string[] = [];
    b.store.onRemoteChange(({ alertLog }) => {
      for (const { event } of alertLog) {
        if (event.t === "add") heard.push(`logged ${event.e.notification_id}`);
        if (event.t === "ack") heard.push(`acked ${b.repos.alertLog.findBySeq(user.id, event.seq)?.notification_id ?? "?"} by ${event.bs}`);
      }
    });
    const note = (id: string): NotifySub => ({ subscription: { type: "follow", version: "1", condition: { platform: "twitch", platform_id: "1" } }, notification: { id, created_at: "" }, event: { name: id } });
    // Logged and acknowledged in one write: node B reads the entry after the commit, acknowledgement and all.
    a.repos.alertLog.append(user.id, note("one-write"), false);
    a.repos.alertLog.acknowledge(user.id, s1, "one-write");
    await a.store.persisted();
    // Logged, then acknowledged by two sources in the writes that follow, without waiting for node B:
    // its read of the entry may come before or after each acknowledgement.
    a.repos.alertLog.append(user.id, note("two-writes"), false);
    await a.store.persisted();
    a.repos.alertLog.acknowledge(user.id, s1, "two-writes");
    await a.store.persisted();
    a.repos.alertLog.acknowledge(user.id, s2, "two-writes");
    await a.store.persisted();
    // Node B applies announcements in order: once it heard of a later alert, any repeat would be in.
    a.repos.alertLog.append(user.id, note("marker"), false);
    await a.store.persisted();
    await waitFor(() => heard.includes("logged marker"), 10_000, "node B to hear of the last alert");
    expect(heard.filter((h) => h.includes("one-write")).sort()).toEqual([`acked one-write by ${s1}`, "logged one-write"]);
    expect(heard.filter((h) => h.includes("two-writes")).sort()).toEqual([`acked two-writes by ${s1}`, `acked two-writes by ${s2}`, "logged two-writes"]);
    // Logged comes before its acknowledgements.
    expect(heard.indexOf("logged two-writes")).toBeLessThan(heard.indexOf(`acked two-writes by ${s1}`));
    expect(b.repos.alertLog.find(user.id, "one-write")?.acked_by).toEqual([s1]);
  });

  test("alerts and their acknowledgements in one write are one statement, also when an alert's row is already stored", async () => {
    const url = await freshDatabase();
    const backend = await PostgresBackend.open(url, { logger: silent });
    try {
      const entry = (seq: number, acked_by: number[] = []): AlertLogEntry =>
        compactEntry({
          seq,
          user_id: 7,
          notification: { subscription: { type: "follow", version: "1", condition: { platform: "twitch", platform_id: "1" } }, notification: { id: `n${seq}`, created_at: "" }, event: { name: `n${seq}` } },
          test: false,
          logged_at: 1_000 + seq,
          acked_by,
          cleared: false,
        });
      const stored = async () => Object.fromEntries((await query<{ seq: string; entry: StoredAlertLogEntry }>(url, "select seq, entry from ovation_alert_log where user_id = 7 order by seq")).map((r) => [r.seq, r.entry.acked_by]));
      const [e1, e2] = [entry(1), entry(2)];
      await backend.write({ documents: [], alertLogs: [{ userId: 7, events: [{ t: "add", e: e1 }, { t: "add", e: e2 }], entries: [e1, e2] }] });
      // Two new alerts, one acknowledged by two sources; its entry here lacks one of them (the
      // write adds it). And acknowledgements of the alerts written before, one of them twice.
      const [e3, e4] = [entry(3, [5]), entry(4)];
      const queries = vi.spyOn(pg.Client.prototype, "query");
      try {
        await backend.write({
          documents: [],
          alertLogs: [
            {
              userId: 7,
              events: [{ t: "add", e: e3 }, { t: "ack", seq: 1, bs: 5 }, { t: "ack", seq: 3, bs: 5 }, { t: "add", e: e4 }, { t: "ack", seq: 3, bs: 6 }, { t: "ack", seq: 2, bs: 6 }, { t: "ack", seq: 1, bs: 5 }],
              entries: [e1, e2, e3, e4],
            },
          ],
        });
        expect(queries).toHaveBeenCalledTimes(1);
      } finally {
        queries.mockRestore();
      }
      expect(await stored()).toEqual({ 1: [5], 2: [6], 3: [5, 6], 4: [] });
      // A write sent again (its answer lost after the commit) with an acknowledgement made since:
      // the insert leaves the stored row as it is, the acknowledgement is still stored.
      await backend.write({ documents: [], alertLogs: [{ userId: 7, events: [{ t: "add", e: entry(4, [6]) }, { t: "ack", seq: 4, bs: 6 }], entries: [e1, e2, e3, e4] }] });
      expect(await stored()).toEqual({ 1: [5], 2: [6], 3: [5, 6], 4: [6] });
    } finally {
      await backend.close();
    }
  });

  test("concurrent changes of one document and one counter on both nodes lose nothing", async () => {
    const url = await freshDatabase();
    const [a, b] = [await node(url), await node(url)];
    const user = a.repos.users.create({ name: "Busy" });
    await a.store.persisted();
    await waitFor(() => b.repos.users.get(user.id) !== null, 10_000, "node B to see the user");
    const channel = String(user.id);
    a.repos.counters.put(user.id, { name: "deaths", keyword: "deaths", value: 0, active: true });
    await a.store.persisted();
    await waitFor(() => b.repos.kv.channelTables(channel)[COUNTERS_TABLE]?.["deaths"] === 0, 10_000, "node B to see the counter");

    // Both nodes change the same user document and the same counter at the same time, several
    // writes each, without waiting for each other.
    const rounds = 15;
    await Promise.all(
      [a, b].map(async (n, i) => {
        for (let r = 0; r < rounds; r++) {
          n.repos.commands.create(user.id, command(`n${i}r${r}`));
          await n.repos.counters.change(user.id, "deaths", "increment", 1);
          await new Promise((resolve) => setTimeout(resolve, r % 3));
        }
        await n.store.persisted();
      }),
    );
    const names = (r: Repositories) => r.commands.listForUser(user.id).map((c) => c.command).sort();
    const deaths = (r: Repositories) => r.kv.channelTables(channel)[COUNTERS_TABLE]?.["deaths"];
    await waitFor(() => names(a.repos).length === 2 * rounds && names(b.repos).length === 2 * rounds && deaths(a.repos) === 2 * rounds && deaths(b.repos) === 2 * rounds, 15_000, "both nodes to hold every command and increment");
    expect(names(b.repos)).toEqual(names(a.repos));
    // And the database holds it all too: a third node starting now loads the same.
    const c = await node(url);
    expect(names(c.repos)).toEqual(names(a.repos));
    expect(deaths(c.repos)).toBe(2 * rounds);
  });

  test("ids created at the same time on both nodes never collide", async () => {
    const url = await freshDatabase();
    const [a, b] = [await node(url), await node(url)];
    const hubs = [new RealtimeGateway(a.repos, silent), new RealtimeGateway(b.repos, silent)];
    const users: number[] = [];
    const seqs: number[] = [];
    // Both nodes create at once (alerts too), without waiting for each other.
    await Promise.all(
      [a, b].map(async (n, i) => {
        for (let k = 0; k < 120; k++) {
          const user = n.repos.users.create({ name: `u${i}-${k}` });
          users.push(user.id);
          seqs.push((await alert(hubs[i]!, user.id, `a${i}-${k}`)).notification ? (n.repos.alertLog.find(user.id, `a${i}-${k}`)?.seq ?? -1) : -1);
          if (k % 5 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await n.store.persisted();
      }),
    );
    expect(new Set(users).size).toBe(240);
    expect(new Set(seqs).size).toBe(240);
    await waitFor(() => a.store.data.users.length === 240 && b.store.data.users.length === 240, 15_000, "both nodes to hold every user");
    // Both keep their tables in id order, so lists read the same on either node.
    const ids = (n: Node) => n.store.data.users.map((u) => u.id);
    expect(ids(a)).toEqual([...ids(a)].sort((x, y) => x - y));
    expect(ids(b)).toEqual(ids(a));
  });

  test("a write the database refused is kept and written again; the other node gets it", async () => {
    const url = await freshDatabase();
    const real = await PostgresBackend.open(url, { logger: silent });
    let refuse = 0;
    // The same backend, whose next write fails as if the database had gone away for a moment.
    const flaky: StoreBackend = {
      description: real.description,
      shared: real.shared,
      load: () => real.load(),
      write: (batch) => (refuse-- > 0 ? Promise.reject(new Error("connection terminated")) : real.write(batch)),
      replaceAll: (store) => real.replaceAll(store),
      close: () => real.close(),
    };
    const a = await Store.fromBackend(flaky, { logger: silent });
    open.push(a);
    const b = await node(url);
    refuse = 1;
    const user = createRepositories(a).users.create({ name: "Retried" });
    await expect(a.persisted()).rejects.toThrow("connection terminated");
    await waitFor(() => b.repos.users.get(user.id)?.name === "Retried", 10_000, "node B to get the retried write");
  });

  test("a write the database refuses for its data is not tried again, so later writes go through", async () => {
    const url = await freshDatabase();
    const [a, b] = [await node(url), await node(url)];
    const bad = a.repos.users.create({ name: "Bad" });
    await a.store.persisted();
    // JSONB refuses a NUL character: this write can never succeed.
    a.repos.commands.create(bad.id, { ...command("nul"), response: "a\u0000b" });
    await expect(a.store.persisted()).rejects.toThrow(/unsupported Unicode|\\u0000/);
    const good = a.repos.users.create({ name: "Good" });
    await a.store.persisted();
    await waitFor(() => b.repos.users.get(good.id) !== null, 10_000, "node B to get the later write");
  });

  test("a node whose listening connection was lost catches up with what it missed", async () => {
    const url = await freshDatabase();
    const a = await node(url);
    const b = await node(url, { listenRetryMs: 3_000 });
    const hubB = new RealtimeGateway(b.repos, silent);
    const user = a.repos.users.create({ name: "Gap" });
    await a.store.persisted();
    await waitFor(() => b.repos.users.get(user.id) !== null, 10_000, "node B to see the user");

    const pid = b.backend.listenerProcessId;
    expect(pid).not.toBeNull();
    const listening = async () => (await query<{ n: number }>(url, "select count(*)::int as n from pg_stat_activity where application_name = $1", [`ovation-node-${b.backend.node}`]))[0]?.n;
    await query(url, "select pg_terminate_backend($1)", [pid]);
    const deadline = Date.now() + 10_000;
    while ((await listening()) !== 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    // While node B has no listening connection, node A writes and logs an alert.
    a.repos.commands.create(user.id, command("missed"));
    alert(new RealtimeGateway(a.repos, silent), user.id, "missed-alert");
    await a.store.persisted();
    expect(await listening()).toBe(0);

    await waitFor(() => b.repos.commands.listForUser(user.id).length === 1 && b.repos.alertLog.find(user.id, "missed-alert") !== undefined, 15_000, "node B to catch up");
    expect((await alert(hubB, user.id, "missed-alert")).duplicate).toBe(true);
    expect(b.backend.listenerProcessId).not.toBe(pid);
  });
});
