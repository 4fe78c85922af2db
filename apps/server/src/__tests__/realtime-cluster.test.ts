import { describe, expect, test } from "vitest";
import { io as connectClient } from "socket.io-client";
import type { NotifySub } from "@ovation/core";
import { seedDefaultAlertSet, seedUser } from "./helpers.js";
import type { SeededUser } from "./helpers.js";
import { useTwoNodesOnRedis } from "./services/redis.js";
import { connect, join, nextEvent, postJson, waitFor } from "./socket-helpers.js";
import type { ClientSocket } from "./socket-helpers.js";

// Two apps in this process on one Redis: what one node emits reaches the other's sockets (through
// the Redis streams adapter), notification ids are de-duplicated across nodes, disconnect orders
// reach every node, and a socket that recovers its connection state gets what it missed once and
// nothing twice. Each node has its own copy of one store (the same users, tokens and sources), so
// this tests the Redis side alone; the two-process test runs nodes on one PostgreSQL store.

const sockets: ClientSocket[] = [];
let alice: SeededUser;
let room: string;
let sourceToken: string;

const { apps, urls } = useTwoNodesOnRedis(
  async (a) => {
    alice = seedUser(a, "Alice");
    await seedDefaultAlertSet(a, alice.userId);
    sourceToken = a.ovation.repos.browserSources.findOrCreate(alice.userId, "alerts", null).record.access_token;
    room = `${alice.uuid}.ovation.${alice.userId}`;
  },
  () => sockets.forEach((socket) => socket.close()),
);

/** A browser source on node `index`: joins the room, records notifysub ids and queue controls. */
async function source(index: number): Promise<{ socket: ClientSocket; seen: string[]; controls: string[] }> {
  const socket = await connect(urls[index]!, { browserSourceToken: sourceToken });
  sockets.push(socket);
  const seen: string[] = [];
  const controls: string[] = [];
  socket.on("notifysub", (n: NotifySub) => seen.push(n.notification.id));
  socket.on("queue-control", (c) => controls.push(c.action));
  expect(await join(socket, room)).toEqual({ joined: room });
  return { socket, seen, controls };
}

async function alert(index: number, body: Record<string, unknown> = {}): Promise<{ status: number; id: string }> {
  const res = await postJson(`${urls[index]}/v1/alerts`, alice.token, { template: "follow", data: { name: "N" }, ...body });
  return { status: res.status, id: (res.json["notification"] as { id: string }).id };
}

/** Lets emits in flight land (a round trip through both nodes and Redis) before counting. */
async function settle(): Promise<void> {
  const probe = await source(1);
  const marker = await alert(0);
  await waitFor(() => probe.seen.includes(marker.id), 10_000, "the marker alert");
  probe.socket.close();
}

describe("two nodes on Redis", () => {
  test("/server-ids lists both nodes on either node", async () => {
    for (const url of urls) expect(await (await fetch(`${url}/server-ids`)).json()).toEqual(["node-a", "node-b"]);
  });

  test("an alert POSTed to one node reaches the sources of both nodes exactly once", async () => {
    const onA = await source(0);
    const onB = await source(1);
    const first = await alert(0);
    const second = await alert(1);
    expect([first.status, second.status]).toEqual([201, 201]);
    await settle();
    for (const s of [onA, onB]) {
      expect(s.seen.filter((id) => id === first.id)).toHaveLength(1);
      expect(s.seen.filter((id) => id === second.id)).toHaveLength(1);
    }
  });

  test("a notification id used on one node is a duplicate on the other, also when both get it at once", async () => {
    const onB = await source(1);
    const once = await alert(0, { notification_id: "evt-cluster-1" });
    const again = await alert(1, { notification_id: "evt-cluster-1" });
    expect([once.status, again.status]).toEqual([201, 200]);
    const raced = await Promise.all([0, 1, 0, 1].map((i) => alert(i, { notification_id: "evt-cluster-2" })));
    expect(raced.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    await settle();
    expect(onB.seen.filter((id) => id === "evt-cluster-1")).toHaveLength(1);
    expect(onB.seen.filter((id) => id === "evt-cluster-2")).toHaveLength(1);
  });

  test("queue control and browser-source updates POSTed to one node reach the other node's sources", async () => {
    const onB = await source(1);
    for (const action of ["pause", "resume", "skip", "clear"]) {
      const control = nextEvent(onB.socket, "queue-control");
      expect((await postJson(`${urls[0]}/v1/alerts/queue/${action}`, alice.token, {})).status).toBeLessThan(300);
      expect(await control).toEqual({ action });
    }
    const updated = nextEvent(onB.socket, "browser-source-updated");
    const setId = apps[0]!.ovation.repos.alertSets.activeForUser(alice.userId)!.id;
    expect((await postJson(`${urls[0]}/v1/alert-configs/${setId}/activate`, alice.token, {})).status).toBeLessThan(300);
    expect(await updated).toMatchObject({ alert_set_id: setId });
  });

  test("a socket that recovers its connection gets what it missed once and nothing twice", async () => {
    const socket: ClientSocket = connectClient(urls[1]!, { auth: { browserSourceToken: sourceToken }, transports: ["websocket"], forceNew: true, reconnectionDelay: 300, reconnectionDelayMax: 300, timeout: 10_000 });
    sockets.push(socket);
    const seen: string[] = [];
    socket.on("notifysub", (n: NotifySub) => seen.push(n.notification.id));
    // The page joins its room on every connect, as the browser-source page does.
    socket.on("connect", () => socket.emit("room", room));
    await nextEvent(socket, "joined");
    // Posted where the socket is, so it is in that node's alert log (which the hub replays from).
    const before = await alert(1);
    await waitFor(() => seen.includes(before.id), 10_000, "the first alert");
    // The server drops the transport (recoverable); the client comes back on its own.
    const reconnected = new Promise<void>((resolve) => socket.io.once("reconnect", () => resolve()));
    for (const server of apps[1]!.ovation.io.sockets.sockets.values()) if (server.id === socket.id) server.conn.close();
    const missed = await alert(0);
    const missedHere = await alert(1);
    await reconnected;
    await nextEvent(socket, "joined");
    expect(socket.recovered).toBe(true);
    await settle();
    // `before` was never acknowledged: the hub's replay would send it again, recovery must not.
    expect(seen.filter((id) => id === before.id)).toHaveLength(1);
    expect(seen.filter((id) => id === missed.id)).toHaveLength(1);
    expect(seen.filter((id) => id === missedHere.id)).toHaveLength(1);
  });

  test("a session recovered with other credentials keeps none of the old rooms", async () => {
    const socket: ClientSocket = connectClient(urls[1]!, { auth: { browserSourceToken: sourceToken }, transports: ["websocket"], forceNew: true, reconnectionDelay: 300, reconnectionDelayMax: 300, timeout: 10_000 });
    sockets.push(socket);
    const seen: string[] = [];
    socket.on("notifysub", (n: NotifySub) => seen.push(n.notification.id));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    expect(await join(socket, room)).toEqual({ joined: room });
    // The client comes back with the same session but as the user's bearer token.
    socket.auth = { token: alice.token };
    const reconnected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    for (const server of apps[1]!.ovation.io.sockets.sockets.values()) if (server.id === socket.id) server.conn.close();
    await reconnected;
    expect(socket.recovered).toBe(true);
    const after = await alert(0);
    await settle();
    expect(seen).not.toContain(after.id);
  });

  test("regenerating a browser source's address on one node disconnects its sockets on the other", async () => {
    const onB = await source(1);
    const error = nextEvent(onB.socket, "error");
    const disconnected = new Promise<void>((resolve) => onB.socket.once("disconnect", () => resolve()));
    const sourceId = apps[0]!.ovation.repos.browserSources.findByAccessToken(sourceToken)!.id;
    expect((await postJson(`${urls[0]}/v1/browser-source/${sourceId}/regenerate`, alice.token, {})).status).toBe(200);
    expect(await error).toMatchObject({ code: "OVATION_ERR_REALTIME_UNAUTHENTICATED" });
    await disconnected;
  });

  test("a socket whose browser-source address is regenerated while it is away does not recover", async () => {
    const socket: ClientSocket = connectClient(urls[1]!, { auth: { browserSourceToken: sourceToken }, transports: ["websocket"], forceNew: true, reconnectionDelay: 300, reconnectionDelayMax: 300, timeout: 10_000 });
    sockets.push(socket);
    socket.on("connect", () => socket.emit("room", room));
    await nextEvent(socket, "joined");
    const refused = new Promise<Error>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the socket was not refused within 10 s")), 10_000);
      socket.once("connect_error", (error) => (clearTimeout(timer), resolve(error)));
    });
    for (const server of apps[1]!.ovation.io.sockets.sockets.values()) if (server.id === socket.id) server.conn.close();
    const sourceId = apps[1]!.ovation.repos.browserSources.findByAccessToken(sourceToken)!.id;
    const regenerated = await postJson(`${urls[1]}/v1/browser-source/${sourceId}/regenerate`, alice.token, {});
    expect(regenerated.status).toBe(200);
    expect((await refused).message).toBe("Unauthenticated.");
    expect(socket.connected).toBe(false);
    socket.io.opts.reconnection = false;
    socket.close();
    sourceToken = regenerated.json["access_token"] as string;
  });

  test("a node that stops leaves /server-ids at once and the other node's sockets connected", async () => {
    const onB = await source(1);
    let disconnected = false;
    onB.socket.on("disconnect", () => (disconnected = true));
    const a = apps.shift()!;
    urls.shift();
    await a.close();
    expect(await (await fetch(`${urls[0]}/server-ids`)).json()).toEqual(["node-b"]);
    const after = await alert(0);
    await waitFor(() => onB.seen.includes(after.id), 10_000, "an alert after the other node stopped");
    expect(disconnected).toBe(false);
  });
});
