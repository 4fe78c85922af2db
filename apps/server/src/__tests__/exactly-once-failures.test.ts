import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { io as connectClient } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NotifySub } from "@ovation/core";
import { startNodeProcess } from "./node-process.js";
import type { NodeProcess } from "./node-process.js";
import { freshDatabase } from "./services/postgres.js";
import { startOwnRedis } from "./services/redis.js";
import type { OwnRedis } from "./services/redis.js";
import { nextEvent, waitFor } from "./socket-helpers.js";
import type { ClientSocket } from "./socket-helpers.js";

// Issue 31, item 6: exactly once across failures. Two server processes (`ovation start`) on one
// PostgreSQL store and one Redis of the test's own; a browser source on node B acknowledges every
// alert on receipt while a bounded burst of alert POSTs alternates between the nodes, and node A is
// SIGKILLed (then, in a second burst, Redis is killed and restarted) in the middle. Afterwards the
// page reloads (it remembers nothing) on node B. Every alert answered 201 is seen, and none twice,
// across both connections.

const BURST = 40;
const dirs: string[] = [];
const nodes: NodeProcess[] = [];
const sockets: ClientSocket[] = [];
let redis: OwnRedis;
let env: Record<string, string>;
let token: string;
let sourceToken: string;
let room: string;

async function startNode(name: string): Promise<NodeProcess> {
  const dir = mkdtempSync(join(tmpdir(), `ovation-${name}-`));
  dirs.push(dir);
  const node = await startNodeProcess(name, { ...env, OVATION_DATA_DIR: dir, OVATION_SERVER_ID: name, OVATION_NODE_TTL_SECONDS: "2", OVATION_RATE_LIMIT_PER_MINUTE: "10000" });
  nodes.push(node);
  return node;
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
  return res.json();
}

/** A browser-source page on `node`: joins its room, acknowledges every alert on receipt, records ids in `seen`. */
async function page(node: NodeProcess, seen: string[]): Promise<ClientSocket> {
  const socket: ClientSocket = connectClient(node.url, { auth: { browserSourceToken: sourceToken }, transports: ["websocket"], forceNew: true, reconnection: false, timeout: 10_000 });
  sockets.push(socket);
  socket.on("notifysub", (n: NotifySub) => {
    seen.push(n.notification.id);
    socket.emit("ack", n.notification.id);
  });
  socket.on("connect", () => socket.emit("room", room));
  await nextEvent(socket, "joined", 20_000);
  return socket;
}

/** POSTs an alert; the id when answered 201, null when the node is gone or refused. */
async function alert(node: NodeProcess, name: string): Promise<string | null> {
  try {
    const res = await fetch(`${node.url}/v1/alerts`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({ template: "follow", data: { name } }),
      signal: AbortSignal.timeout(10_000),
    });
    if (res.status !== 201) return null;
    return ((await res.json()) as { notification: { id: string } }).notification.id;
  } catch {
    return null;
  }
}

/** What the burst and the reload showed: alerts answered 201 never seen, and alerts seen more than once. */
function tally(sent: readonly string[], seen: readonly string[]): { lost: string[]; doubled: string[] } {
  const counts = new Map<string, number>();
  for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
  return { lost: sent.filter((id) => !counts.has(id)), doubled: [...counts].filter(([, n]) => n > 1).map(([id]) => id) };
}

/** Runs a burst of alternating POSTs with `fault` in its middle, then reloads the page on `survivor`; answers the tally. */
async function burstWithFault(targets: () => NodeProcess[], survivor: NodeProcess, fault: () => Promise<void>): Promise<{ lost: string[]; doubled: string[]; sent: number }> {
  const seen: string[] = [];
  const first = await page(survivor, seen);
  const sent: string[] = [];
  for (let i = 0; i < BURST; i++) {
    if (i === BURST / 2) await fault();
    const live = targets();
    const id = await alert(live[i % live.length]!, `burst-${i}`);
    if (id !== null) sent.push(id);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Everything answered 201 reaches the page (live, or replayed once Redis is back), bounded in time.
  await waitFor(() => sent.every((id) => seen.includes(id)), 60_000, "every alert of the burst on the page").catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  first.close();
  // The page reloads on the node still up, remembering nothing; a marker alert shows the replay is over.
  const second = await page(survivor, seen);
  const marker = await alert(survivor, "marker");
  expect(marker).not.toBeNull();
  await waitFor(() => seen.includes(marker ?? ""), 20_000, "the marker after the reload");
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  second.close();
  return { ...tally([...sent, marker ?? ""], seen), sent: sent.length };
}

beforeAll(async () => {
  redis = await startOwnRedis();
  env = { OVATION_DATABASE_URL: await freshDatabase(), OVATION_REDIS_URL: redis.url };
  const a = await startNode("node-a");
  token = /Personal access token[^\n]*\n\s+(\S+)/.exec(a.output())?.[1] ?? "";
  const pageUrl = /Browser source[^\n]*\n\s+(\S+)/.exec(a.output())?.[1] ?? "";
  sourceToken = pageUrl.slice(pageUrl.lastIndexOf("/") + 1);
  expect(token).not.toBe("");
  const user = (await getJson(`${a.url}/v1/users`)) as { id: number; uuid: string };
  room = `${user.uuid}.ovation.${user.id}`;
  await startNode("node-b");
}, 240_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await Promise.all(nodes.map((node) => node.stop()));
  await redis?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe("exactly once across failures (two processes on PostgreSQL and Redis)", () => {
  test("a Redis restart in a burst of alert POSTs: 0 lost, 0 doubled", async () => {
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    const result = await burstWithFault(() => [a, b], b, async () => {
      await redis.kill();
      await new Promise((resolve) => setTimeout(resolve, 500));
      await redis.start();
    });
    expect(result.sent).toBeGreaterThan(BURST / 2);
    expect(result.lost).toEqual([]);
    expect(result.doubled).toEqual([]);
  }, 180_000);

  test("SIGKILL of node A in a burst of alert POSTs: 0 lost, 0 doubled on the page on node B", async () => {
    const [a, b] = nodes as [NodeProcess, NodeProcess];
    let killed = false;
    const result = await burstWithFault(() => (killed ? [b] : [a, b]), b, async () => {
      await a.kill();
      killed = true;
    });
    expect(result.sent).toBeGreaterThan(BURST / 2);
    expect(result.lost).toEqual([]);
    expect(result.doubled).toEqual([]);
  }, 180_000);
});
