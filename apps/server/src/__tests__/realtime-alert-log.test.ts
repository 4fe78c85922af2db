import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AlertLogUpdate, NotifySub } from "@ovation/core";
import type { OvationApp } from "../app.js";
import { seedDefaultAlertSet, seedUser, tempDataDir, testApp } from "./helpers.js";
import { connect, join, listen, postJson, waitFor } from "./socket-helpers.js";
import type { ClientSocket } from "./socket-helpers.js";

const data = tempDataDir();
let app: OvationApp;
let url: string;
let alice: { userId: number; uuid: string; token: string };
let bob: { userId: number; uuid: string; token: string };
let room: string;
const sockets: ClientSocket[] = [];

interface Recorder {
  socket: ClientSocket;
  alerts: string[];
  controls: string[];
  log: AlertLogUpdate[];
}

async function record(auth: Record<string, string>): Promise<Recorder> {
  const socket = await connect(url, auth);
  sockets.push(socket);
  const rec: Recorder = { socket, alerts: [], controls: [], log: [] };
  socket.on("notifysub", (n: NotifySub) => rec.alerts.push(n.notification.id));
  socket.on("queue-control", (c) => rec.controls.push(c.action));
  socket.on("alert-log", (u) => rec.log.push(u));
  expect(await join(socket, room)).toEqual({ joined: room });
  return rec;
}

async function alert(name: string): Promise<string> {
  const res = await postJson(`${url}/v1/alerts`, alice.token, { template: "follow", data: { name } });
  expect(res.status).toBe(201);
  return (res.json["notification"] as { id: string }).id;
}

const post = (path: string, token: string, body: unknown) => postJson(`${url}${path}`, token, body);

beforeAll(async () => {
  app = await testApp(data.dir);
  alice = seedUser(app, "Alice");
  bob = seedUser(app, "Bob");
  await seedDefaultAlertSet(app, alice.userId);
  room = `${alice.uuid}.ovation.${alice.userId}`;
  url = await listen(app);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await app.close();
  data.remove();
});

describe("queue control per browser source, live alert-log updates", () => {
  test("pause, skip, clear and replay reach only the named source; the dashboard socket sees every change and browser sources none", async () => {
    const sources = app.ovation.repos.browserSources;
    const first = sources.findOrCreate(alice.userId, "alerts", null).record;
    const second = sources.findOrCreate(alice.userId, "alerts", "second").record;
    const one = await record({ browserSourceToken: first.access_token });
    const two = await record({ browserSourceToken: second.access_token });
    const dashboard = await record({ token: alice.token });

    const a = await alert("A");
    await waitFor(() => one.alerts.length === 1 && two.alerts.length === 1, 10_000, "A live on both");
    await waitFor(() => dashboard.log.some((u) => u.kind === "logged" && u.entry.notification.notification.id === a), 10_000, "logged update");
    one.socket.emit("ack", a);
    await waitFor(() => dashboard.log.some((u) => u.kind === "acknowledged" && u.notification_id === a && u.browser_source_id === first.id), 10_000, "ack update");

    const paused = await post("/v1/alerts/queue/pause", alice.token, { browser_source_id: second.id });
    expect(paused.status).toBe(200);
    expect(paused.json).toMatchObject({ action: "pause", browser_source_id: second.id, paused: false, paused_sources: [second.id] });
    await waitFor(() => two.controls.includes("pause"), 10_000, "pause on the second source");
    await waitFor(() => dashboard.log.some((u) => u.kind === "queue" && u.action === "pause"), 10_000, "queue update");

    // Clearing the second source drops A for it only: A stays in the log, acknowledged by both.
    const cleared = await post("/v1/alerts/queue/clear", alice.token, { browser_source_id: second.id });
    expect(cleared.json).toMatchObject({ action: "clear", cleared: 1 });
    expect(app.ovation.repos.alertLog.find(alice.userId, a)?.acked_by.toSorted()).toEqual([first.id, second.id].sort());
    expect(app.ovation.repos.alertLog.find(alice.userId, a)?.cleared).toBe(false);

    const replayed = await post("/v1/alerts/queue/replay", alice.token, { notification_id: a, browser_source_id: first.id });
    expect(replayed.status).toBe(200);
    await waitFor(() => one.alerts.length === 2, 10_000, "replay on the first source");
    await waitFor(() => dashboard.log.some((u) => u.kind === "replayed" && u.browser_source_id === first.id), 10_000, "replay update");

    // A reconnecting paused source is told it is paused; the other is not.
    two.socket.close();
    const again = await record({ browserSourceToken: second.access_token });
    await waitFor(() => again.controls.includes("pause"), 10_000, "pause told on reconnect");

    const log = await fetch(`${url}/v1/alerts/log`, { headers: { authorization: `Bearer ${alice.token}` } });
    expect(await log.json()).toMatchObject({ paused: false, paused_sources: [second.id] });
    const resumed = await post("/v1/alerts/queue/resume", alice.token, {});
    expect(resumed.json).toMatchObject({ browser_source_id: null, paused: false, paused_sources: [] });

    expect(two.controls).toEqual(["pause", "clear"]);
    await waitFor(() => one.controls.length === 1 && again.controls.length === 2, 10_000, "resume on every source");
    expect(one.controls).toEqual(["resume"]);
    expect(again.controls).toEqual(["pause", "resume"]);
    expect(one.alerts).toHaveLength(2);
    expect(two.alerts).toHaveLength(1);
    for (const source of [one, two, again]) expect(source.log).toEqual([]);
  });

  test("another user's browser source is a 404 naming browser_source_id", async () => {
    const bobs = app.ovation.repos.browserSources.findOrCreate(bob.userId, "alerts", null).record;
    for (const path of ["/v1/alerts/queue/pause", "/v1/alerts/queue/skip"]) {
      const res = await post(path, alice.token, { browser_source_id: bobs.id });
      expect(res.status).toBe(404);
      expect(Object.keys(res.json["errors"] as object)).toEqual(["browser_source_id"]);
    }
    expect(app.ovation.repos.queueState.pausedSources(alice.userId)).toEqual([]);
  });
});
