import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { io as connectClient } from "socket.io-client";
import type { NotifySub } from "@ovation/core";
import type { OvationApp } from "../app.js";
import { BROWSER_SOURCE_BACKLOG_MAX_AGE_MS } from "../realtime/gateway.js";
import { bearer, seedDefaultAlertSet, seedUser, tempDataDir, testApp } from "./helpers.js";
import { connect, join, listen, postJson, waitFor } from "./socket-helpers.js";
import type { ClientSocket } from "./socket-helpers.js";

const data = tempDataDir();
let app: OvationApp;
let url: string;
let alice: { userId: number; uuid: string; token: string };
let sourceToken: string;
let room: string;
const sockets: ClientSocket[] = [];

/** A browser source as the page is: connects with its token, joins, records notifysub ids, acks on demand. */
async function browserSource(token = sourceToken): Promise<{ socket: ClientSocket; seen: string[]; controls: string[] }> {
  const socket = await connect(url, { browserSourceToken: token });
  sockets.push(socket);
  const seen: string[] = [];
  const controls: string[] = [];
  socket.on("notifysub", (n: NotifySub) => seen.push(n.notification.id));
  socket.on("queue-control", (c) => controls.push(c.action));
  const answer = await join(socket, room);
  expect(answer).toEqual({ joined: room });
  return { socket, seen, controls };
}

async function alert(name: string): Promise<string> {
  const res = await postJson(`${url}/v1/alerts`, alice.token, { template: "follow", data: { name } });
  expect(res.status).toBe(201);
  return (res.json["notification"] as { id: string }).id;
}

const ack = (socket: ClientSocket, id: string) => socket.emit("ack", id);
const settle = async () => {
  await app.ovation.repos.store.persisted();
};

beforeAll(async () => {
  app = await testApp(data.dir);
  alice = seedUser(app, "Alice");
  await seedDefaultAlertSet(app, alice.userId);
  sourceToken = app.ovation.repos.browserSources.findOrCreate(alice.userId, "alerts", null).record.access_token;
  room = `${alice.uuid}.ovation.${alice.userId}`;
  url = await listen(app);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await app.close();
  data.remove();
});

describe("nothing lost", () => {
  test("after a reconnect a browser source receives every unacknowledged alert once, in order", async () => {
    const first = await browserSource();
    const a = await alert("A");
    const b = await alert("B");
    await waitFor(() => first.seen.length === 2, 10_000, "A and B live");
    expect(first.seen).toEqual([a, b]);
    ack(first.socket, a);
    await waitFor(() => app.ovation.repos.alertLog.find(alice.userId, a)?.acked_by.length === 1, 10_000, "ack of A");
    first.socket.close();

    const c = await alert("C");
    const d = await alert("D");
    const second = await browserSource();
    await waitFor(() => second.seen.length >= 3, 10_000, "replay of B, C, D");
    const live = await alert("E");
    await waitFor(() => second.seen.includes(live), 10_000, "E live");
    expect(second.seen).toEqual([b, c, d, live]);
    for (const id of second.seen) ack(second.socket, id);
    await waitFor(() => app.ovation.repos.alertLog.unacknowledged(alice.userId, app.ovation.repos.browserSources.findByAccessToken(sourceToken)!.id, 0).length === 0, 10_000, "acks");
    second.socket.close();
  });

  test("a socket that recovers its connection gets what it missed once, and no replay of what it holds", async () => {
    const socket: ClientSocket = connectClient(url, { auth: { browserSourceToken: sourceToken }, transports: ["websocket"], forceNew: true, reconnectionDelay: 300, reconnectionDelayMax: 300, timeout: 10_000 });
    sockets.push(socket);
    const seen: string[] = [];
    socket.on("notifysub", (n: NotifySub) => seen.push(n.notification.id));
    // The page joins its room on every connect, recovered or not.
    socket.on("connect", () => socket.emit("room", room));
    await waitFor(() => socket.connected, 10_000, "connect");
    const held = await alert("held");
    await waitFor(() => seen.includes(held), 10_000, "the first alert");
    const back = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    for (const server of app.ovation.io.sockets.sockets.values()) if (server.id === socket.id) server.conn.close();
    const missed = await alert("missed");
    await back;
    expect(socket.recovered).toBe(true);
    const live = await alert("live");
    await waitFor(() => seen.includes(live), 10_000, "a live alert");
    // `held` was never acknowledged: a replay would send it again; recovery does not.
    expect(seen.filter((id) => id === held)).toHaveLength(1);
    expect(seen.filter((id) => id === missed)).toHaveLength(1);
    for (const id of seen) ack(socket, id);
    await waitFor(() => app.ovation.repos.alertLog.unacknowledged(alice.userId, app.ovation.repos.browserSources.findByAccessToken(sourceToken)!.id, 0).length === 0, 10_000, "acks");
    socket.io.opts.reconnection = false;
    socket.close();
  });

  test("after a server restart on the same data directory, unacknowledged alerts are replayed once, in order", async () => {
    const before = await browserSource();
    const f = await alert("F");
    const g = await alert("G");
    await waitFor(() => before.seen.length === 2, 10_000, "F and G");
    ack(before.socket, f);
    await waitFor(() => app.ovation.repos.alertLog.find(alice.userId, f)?.acked_by.length === 1, 10_000, "ack of F");
    await settle();
    before.socket.close();

    await app.close();
    app = await testApp(data.dir);
    url = await listen(app);

    const after = await browserSource();
    await waitFor(() => after.seen.length >= 1, 10_000, "replay of G");
    const h = await alert("H");
    await waitFor(() => after.seen.includes(h), 10_000, "H live");
    expect(after.seen).toEqual([g, h]);
    const dedup = await postJson(`${url}/v1/alerts`, alice.token, { template: "follow", data: { name: "X" }, notification_id: "platform-msg-1" });
    const repeat = await postJson(`${url}/v1/alerts`, alice.token, { template: "follow", data: { name: "X" }, notification_id: "platform-msg-1" });
    expect([dedup.status, repeat.status]).toEqual([201, 200]);
    after.socket.close();

    await app.close();
    app = await testApp(data.dir);
    url = await listen(app);
    const afterSecondRestart = await postJson(`${url}/v1/alerts`, alice.token, { template: "follow", data: { name: "X" }, notification_id: "platform-msg-1" });
    expect(afterSecondRestart.status).toBe(200);
  });

  test("a paused queue stays paused for a source that reconnects; cleared alerts are not replayed", async () => {
    const res = await app.inject({ method: "POST", url: "/v1/alerts/queue/pause", headers: bearer(alice.token) });
    expect(res.json().paused).toBe(true);
    const pending = await alert("P");
    await app.inject({ method: "POST", url: "/v1/alerts/queue/clear", headers: bearer(alice.token) });
    const s = await browserSource();
    const marker = await alert("Q");
    await waitFor(() => s.seen.includes(marker), 10_000, "Q live");
    expect(s.controls[0]).toBe("pause");
    expect(s.seen).not.toContain(pending);
    await app.inject({ method: "POST", url: "/v1/alerts/queue/resume", headers: bearer(alice.token) });
    await waitFor(() => s.controls.includes("resume"), 10_000, "resume");
    s.socket.close();
  });

  test("a browser source generated later does not receive older alerts; bearer sockets get no replay", async () => {
    await alert("Old");
    const scene = app.ovation.repos.browserSources.findOrCreate(alice.userId, "alerts", "fresh-" + Date.now());
    const socket = await connect(url, { browserSourceToken: scene.record.access_token });
    sockets.push(socket);
    const seen: string[] = [];
    socket.on("notifysub", (n) => seen.push(n.notification.id));
    await join(socket, room);
    const viewer = await connect(url, { token: alice.token });
    sockets.push(viewer);
    const viewerSeen: string[] = [];
    viewer.on("notifysub", (n) => viewerSeen.push(n.notification.id));
    await join(viewer, room);
    const marker = await alert("New");
    await waitFor(() => seen.includes(marker) && viewerSeen.includes(marker), 10_000, "marker");
    expect(seen).toEqual([marker]);
    expect(viewerSeen).toEqual([marker]);
  });

  test("a browser source that has never connected starts with no backlog, though its record is older than the alerts (issue 10)", async () => {
    const scene = app.ovation.repos.browserSources.findOrCreate(alice.userId, "alerts", "never-connected-" + Date.now());
    const before = await alert("Sent before the first connection");
    const { seen } = await browserSource(scene.record.access_token);
    const marker = await alert("After");
    await waitFor(() => seen.includes(marker), 10_000, "marker");
    expect(seen).toEqual([marker]);
    expect(seen).not.toContain(before);
  });

  test(`a reconnecting browser source gets what it missed, at most ${BROWSER_SOURCE_BACKLOG_MAX_AGE_MS / 60_000} minutes old`, async () => {
    const scene = app.ovation.repos.browserSources.findOrCreate(alice.userId, "alerts", "gap-" + Date.now());
    (await browserSource(scene.record.access_token)).socket.close();
    // Pretend the source first joined an hour ago and the gap held an old and a recent alert.
    const now = Date.now();
    app.ovation.repos.browserSourceJoins.setFirstJoined(alice.userId, scene.record.id, now - 3_600_000);
    const notification = (id: string) => ({
      subscription: { type: "follow", version: "1", condition: { platform: "twitch", platform_id: "1" } },
      notification: { id, created_at: new Date().toISOString() },
      event: { data: { name: id }, random: 1, template: null, test: true },
    });
    app.ovation.repos.alertLog.append(alice.userId, notification(`too-old-${now}`), true, now - BROWSER_SOURCE_BACKLOG_MAX_AGE_MS - 60_000);
    app.ovation.repos.alertLog.append(alice.userId, notification(`missed-${now}`), true, now - BROWSER_SOURCE_BACKLOG_MAX_AGE_MS + 60_000);
    const { seen } = await browserSource(scene.record.access_token);
    const marker = await alert("Live");
    await waitFor(() => seen.includes(marker), 10_000, "marker");
    expect(seen).toContain(`missed-${now}`);
    expect(seen).not.toContain(`too-old-${now}`);
  });

  test("regenerating a browser source disconnects its sockets", async () => {
    const s = await browserSource();
    const id = app.ovation.repos.browserSources.findByAccessToken(sourceToken)!.id;
    const gone = new Promise<string>((resolve) => s.socket.once("disconnect", (reason) => resolve(reason)));
    const res = await app.inject({ method: "POST", url: `/v1/browser-source/${id}/regenerate`, headers: bearer(alice.token) });
    expect(res.statusCode).toBe(200);
    expect(await gone).toBe("io server disconnect");
    await expect(connect(url, { browserSourceToken: sourceToken })).rejects.toMatchObject({ message: "Unauthenticated." });
  });
});
