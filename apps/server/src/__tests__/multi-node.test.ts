import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { io as connectClient } from "socket.io-client";
import type { Socket } from "socket.io-client";
import type { AlertLogUpdate, NotifySub } from "@ovation/core";
import { startNodeProcess } from "./node-process.js";
import type { NodeProcess } from "./node-process.js";
import { freshDatabase } from "./services/postgres.js";
import { startOwnRedis } from "./services/redis.js";
import type { OwnRedis } from "./services/redis.js";
import { connect, join as joinRoom, nextEvent, postJson, waitFor } from "./socket-helpers.js";
import type { ClientSocket } from "./socket-helpers.js";

// Two real server processes (`ovation start`) on one PostgreSQL store and one Redis of the test's
// own: alerts cross nodes, /server-ids follows the live nodes, a Redis restart only pauses
// delivery, and a source whose node is killed gets what it missed from the other node, once.

const RATE_LIMIT = 200;
const dirs: string[] = [];
const nodes: NodeProcess[] = [];
const sockets: ClientSocket[] = [];
let redis: OwnRedis;
let token: string;
let sourceToken: string;
let sourceId: number;
let room: string;

async function startNode(name: string, env: Record<string, string>): Promise<NodeProcess> {
  const dir = mkdtempSync(join(tmpdir(), `ovation-${name}-`));
  dirs.push(dir);
  const node = await startNodeProcess(name, { ...env, OVATION_DATA_DIR: dir, OVATION_SERVER_ID: name, OVATION_NODE_TTL_SECONDS: "2", OVATION_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) });
  nodes.push(node);
  return node;
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
  return res.json();
}

/** A browser source on `node` as the page is: joins its room on every connect, acks every alert, records ids. */
async function source(node: NodeProcess, options: { ack?: boolean } = {}): Promise<{ socket: ClientSocket; seen: string[] }> {
  const socket: ClientSocket = connectClient(node.url, { auth: { browserSourceToken: sourceToken }, transports: ["websocket"], forceNew: true, reconnection: false, timeout: 10_000 });
  sockets.push(socket);
  const seen: string[] = [];
  socket.on("notifysub", (n: NotifySub) => {
    seen.push(n.notification.id);
    if (options.ack) socket.emit("ack", n.notification.id);
  });
  socket.on("connect", () => socket.emit("room", room));
  await nextEvent(socket, "joined", 20_000);
  return { socket, seen };
}

async function alert(node: NodeProcess, name = "N"): Promise<string> {
  const res = await postJson(`${node.url}/v1/alerts`, token, { template: "follow", data: { name } });
  expect(res.status).toBe(201);
  return (res.json["notification"] as { id: string }).id;
}

const count = (seen: string[], id: string) => seen.filter((s) => s === id).length;

/** A console chat session on `node`, speaking as a viewer; records what the bot says. */
async function chat(node: NodeProcess): Promise<{ socket: Socket; said: string[] }> {
  const socket = connectClient(`${node.url}/console`, { auth: { token, as: "viewer" }, transports: ["websocket"], reconnection: false, forceNew: true, timeout: 10_000 });
  const said: string[] = [];
  socket.on("say", (output: { text?: string; message?: string }) => said.push(output.text ?? output.message ?? JSON.stringify(output)));
  await new Promise<void>((resolve, reject) => {
    socket.once("ready", () => resolve());
    socket.once("connect_error", reject);
  });
  return { socket, said };
}

beforeAll(async () => {
  redis = await startOwnRedis();
  const env = { OVATION_DATABASE_URL: await freshDatabase(), OVATION_REDIS_URL: redis.url };
  const a = await startNode("node-a", env);
  token = /Personal access token[^\n]*\n\s+(\S+)/.exec(a.output())?.[1] ?? "";
  const page = /Browser source[^\n]*\n\s+(\S+)/.exec(a.output())?.[1] ?? "";
  sourceToken = page.slice(page.lastIndexOf("/") + 1);
  expect(token).not.toBe("");
  expect(sourceToken).not.toBe("");
  const user = (await getJson(`${a.url}/v1/users`)) as { id: number; uuid: string };
  room = `${user.uuid}.ovation.${user.id}`;
  const sources = (await getJson(`${a.url}/v1/browser-source`)) as { data: Array<{ id: number; browser_source_type: string }> };
  sourceId = sources.data.find((s) => s.browser_source_type === "alerts")?.id ?? 0;
  await startNode("node-b", env);
}, 240_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await Promise.all(nodes.map((node) => node.stop()));
  await redis?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe("two server processes on PostgreSQL and Redis", () => {
  test("each node lists both in /server-ids; a socket with another node's serverid cookie gets this node's", async () => {
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    for (const node of [a, b]) expect(await (await fetch(`${node.url}/server-ids`)).json()).toEqual(["node-a", "node-b"]);
    const handshake = await fetch(`${b.url}/socket.io/?EIO=4&transport=polling`, { headers: { cookie: "serverid=node-a" } });
    expect(handshake.headers.get("set-cookie")).toMatch(/^serverid=node-b;/);
  });

  test("an alert POSTed to one node reaches the sources on both nodes exactly once", async () => {
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    const onA = await source(a);
    const onB = await source(b);
    const fromA = await alert(a);
    const fromB = await alert(b);
    const last = await alert(a);
    await waitFor(() => onA.seen.includes(last) && onB.seen.includes(last), 20_000, "the last alert on both nodes");
    for (const s of [onA, onB]) for (const id of [fromA, fromB, last]) expect(count(s.seen, id)).toBe(1);
    onA.socket.close();
    onB.socket.close();
  }, 60_000);

  test("dashboards on both nodes are told once of each alert logged and each acknowledgement, whichever node had them", async () => {
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    const dashboards = await Promise.all(
      [a, b].map(async (node) => {
        const socket = await connect(node.url, { token });
        sockets.push(socket);
        const log: AlertLogUpdate[] = [];
        socket.on("alert-log", (update: AlertLogUpdate) => log.push(update));
        expect(await joinRoom(socket, room)).toEqual({ joined: room });
        return log;
      }),
    );
    const onB = await source(b, { ack: true });
    const logged = (log: AlertLogUpdate[], id: string) => log.filter((u) => u.kind === "logged" && u.entry.notification.notification.id === id).length;
    const acked = (log: AlertLogUpdate[], id: string) => log.filter((u) => u.kind === "acknowledged" && u.notification_id === id && u.browser_source_id === sourceId).length;
    // Logged on node A, acknowledged on node B; then a second alert, logged on node B: once its
    // updates are in, any repeat of the first's would have come before them.
    const first = await alert(a);
    await waitFor(() => dashboards.every((log) => logged(log, first) === 1 && acked(log, first) === 1), 20_000, "the first alert's updates on both dashboards");
    const second = await alert(b);
    await waitFor(() => dashboards.every((log) => logged(log, second) === 1 && acked(log, second) === 1), 20_000, "the second alert's updates on both dashboards");
    for (const log of dashboards) for (const id of [first, second]) expect([logged(log, id), acked(log, id)]).toEqual([1, 1]);
    onB.socket.close();
  }, 60_000);

  test("the HTTP rate limit counts the requests of both nodes together", async () => {
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    // Requests count per Authorization header (else per address); /server-ids checks none, so a
    // header of this test's own is a bucket of its own. Alternate between the nodes until one refuses.
    const probe = { authorization: "Basic cmF0ZS1saW1pdC1wcm9iZQ==", accept: "application/json" };
    let passed = 0;
    let refusedBy: NodeProcess | null = null;
    for (let i = 0; i < 3 * RATE_LIMIT && refusedBy === null; i++) {
      const node = i % 2 === 0 ? a : b;
      const res = await fetch(`${node.url}/server-ids`, { headers: probe });
      if (res.status === 429) refusedBy = node;
      else passed++;
    }
    // Counted apart, each node would let RATE_LIMIT through (2 x RATE_LIMIT in all).
    expect(refusedBy).not.toBeNull();
    expect(passed).toBeLessThanOrEqual(RATE_LIMIT);
    for (const node of [a, b]) expect((await fetch(`${node.url}/server-ids`, { headers: probe })).status).toBe(429);
  }, 60_000);

  test("a command cooldown taken on one node holds on the other", async () => {
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    const onA = await chat(a);
    const onB = await chat(b);
    try {
      // The quick-start command !hug has a 5 s global cooldown.
      onA.socket.emit("line", "!hug Bob");
      await waitFor(() => onA.said.some((t) => t.includes("sends a hug")), 20_000, "the answer on node-a");
      onB.socket.emit("line", "!hug Carol");
      // Once the cooldown is over the same command is answered on node-b; the first line never was.
      await new Promise((r) => setTimeout(r, 5_500));
      onB.socket.emit("line", "!hug Dave");
      await waitFor(() => onB.said.some((t) => t.includes("Dave")), 20_000, "the answer on node-b after the cooldown");
      expect(onB.said.filter((t) => t.includes("Carol"))).toEqual([]);
    } finally {
      onA.socket.close();
      onB.socket.close();
    }
  }, 60_000);

  test("a restart of Redis pauses delivery across nodes, then it resumes; neither node crashes", async () => {
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    const onB = await source(b);
    await redis.kill();
    // While Redis is away the API still answers (the alert is logged; emits wait for Redis).
    const during = await alert(a, "during");
    await redis.start();
    const deadline = Date.now() + 30_000;
    let after = "";
    for (;;) {
      after = await alert(a, "after");
      const sent = after;
      const arrived = await waitFor(() => onB.seen.includes(sent), 2_000, "an alert after the restart").then(() => true, () => false);
      if (arrived) break;
      if (Date.now() > deadline) throw new Error(`no alert crossed nodes within 30 s of the Redis restart; node-a printed:\n${a.output()}`);
    }
    expect(count(onB.seen, after)).toBe(1);
    expect(count(onB.seen, during)).toBeLessThanOrEqual(1);
    for (const node of [a, b]) {
      expect(node.child.exitCode).toBeNull();
      expect((await fetch(`${node.url}/health`)).status).toBe(200);
    }
    const ids = async () => (await fetch(`${a.url}/server-ids`)).json();
    const listed = Date.now() + 10_000;
    while (JSON.stringify(await ids()) !== JSON.stringify(["node-a", "node-b"]) && Date.now() < listed) await new Promise((r) => setTimeout(r, 200));
    expect(await ids()).toEqual(["node-a", "node-b"]);
    onB.socket.close();
  }, 90_000);

  test("a source whose node is killed reconnects to the other node and gets what it missed, exactly once", async () => {
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    const onA = await source(a, { ack: true });
    const shown = await alert(a, "shown");
    await waitFor(() => onA.seen.includes(shown), 20_000, "the alert before the kill");
    // The acknowledgement is in the shared alert log before the node dies.
    const acked = Date.now() + 20_000;
    for (;;) {
      const log = (await getJson(`${b.url}/v1/alerts/log?limit=50`)) as { data: Array<{ notification: { notification: { id: string } }; acknowledged_by: number[] }> };
      if (log.data.some((e) => e.notification.notification.id === shown && e.acknowledged_by.includes(sourceId))) break;
      if (Date.now() > acked) throw new Error("the acknowledgement never reached node-b");
      await new Promise((r) => setTimeout(r, 100));
    }
    await a.kill();
    const missed = [await alert(b, "missed-1"), await alert(b, "missed-2")];
    // The page comes back through the proxy, which now sends it to node-b.
    const again = await source(b, { ack: true });
    await waitFor(() => missed.every((id) => again.seen.includes(id)), 20_000, "the missed alerts");
    const live = await alert(b, "live");
    await waitFor(() => again.seen.includes(live), 20_000, "a live alert after the reconnect");
    expect(again.seen.filter((id) => id === shown)).toEqual([]);
    for (const id of [...missed, live]) expect(count(again.seen, id)).toBe(1);
    // The killed node leaves /server-ids within its TTL (2 s here).
    const gone = Date.now() + 10_000;
    let ids: unknown = null;
    while (Date.now() < gone) {
      ids = await (await fetch(`${b.url}/server-ids`)).json();
      if (JSON.stringify(ids) === JSON.stringify(["node-b"])) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(ids).toEqual(["node-b"]);
  }, 120_000);
});
