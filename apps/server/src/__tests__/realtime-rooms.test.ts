import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OvationApp } from "../app.js";
import { seedDefaultAlertSet, seedUser, tempDataDir, testApp } from "./helpers.js";
import { connect, join, listen, nextEvent, postJson } from "./socket-helpers.js";
import type { ClientSocket } from "./socket-helpers.js";

const data = tempDataDir();
let app: OvationApp;
let url: string;
let alice: { userId: number; uuid: string; token: string };
let bob: { userId: number; uuid: string; token: string };
const sockets: ClientSocket[] = [];
const track = (s: ClientSocket) => (sockets.push(s), s);

beforeAll(async () => {
  app = await testApp(data.dir, { OVATION_SERVER_ID: "node-a" });
  alice = seedUser(app, "Alice");
  bob = seedUser(app, "Bob");
  await seedDefaultAlertSet(app, alice.userId);
  app.ovation.repos.connections.upsert({ user_id: alice.userId, platform: "twitch", platform_user_id: "106415581", username: "alice" });
  url = await listen(app);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await app.close();
  data.remove();
});

describe("handshake authentication", () => {
  test("a bad bearer token or browser-source token is refused at the handshake", async () => {
    await expect(connect(url, { token: "ovpat_1_" + "a".repeat(43) })).rejects.toMatchObject({ message: "Unauthenticated.", data: { code: "OVATION_ERR_REALTIME_UNAUTHENTICATED" } });
    await expect(connect(url, { browserSourceToken: "00000000-0000-0000-0000-000000000000" })).rejects.toMatchObject({ message: "Unauthenticated." });
  });

  test("a bearer token works in auth.token and in the Authorization header", async () => {
    const a = track(await connect(url, { token: alice.token }));
    expect(await join(a, `${alice.uuid}.ovation.${alice.userId}`)).toEqual({ joined: `${alice.uuid}.ovation.${alice.userId}` });
    const prefixed = track(await connect(url, { token: `Bearer ${alice.token}` }));
    expect(await join(prefixed, `${alice.uuid}.ovation.${alice.userId}`)).toMatchObject({ joined: expect.any(String) });
    const b = track(await connect(url, {}, { authorization: `Bearer ${alice.token}` }));
    expect(await join(b, `${alice.uuid}.twitch.106415581`)).toEqual({ joined: `${alice.uuid}.twitch.106415581` });
  });
});

describe("rooms", () => {
  test("a socket joins only its own user's rooms; a refused join answers an error event", async () => {
    const s = track(await connect(url, { token: bob.token }));
    expect(await join(s, `${alice.uuid}.ovation.${alice.userId}`)).toEqual({
      error: { code: "OVATION_ERR_REALTIME_ROOM_FORBIDDEN", message: expect.any(String), room: `${alice.uuid}.ovation.${alice.userId}`, event: "room" },
    });
    expect(await join(s, `${bob.uuid}.twitch.106415581`)).toMatchObject({ error: { code: "OVATION_ERR_REALTIME_ROOM_FORBIDDEN" } });
    expect(await join(s, `${bob.uuid}.ovation.${alice.userId}`)).toMatchObject({ error: { code: "OVATION_ERR_REALTIME_ROOM_FORBIDDEN" } });
    expect(await join(s, "not a room")).toMatchObject({ error: { code: "OVATION_ERR_REALTIME_ROOM_INVALID" } });
    expect(await join(s, `${alice.uuid}.twitch.106415581.chat`)).toEqual({ joined: `${alice.uuid}.twitch.106415581.chat` });
  });

  test("a bearer socket needs the scope of the room's kind: alerts:manage or widgets:manage for private rooms, none for .chat", async () => {
    const { token: readOnly } = app.ovation.repos.tokens.create({ user_id: alice.userId, name: "profile only", scopes: ["user:read"] });
    const s = track(await connect(url, { token: readOnly }));
    expect(await join(s, `${alice.uuid}.ovation.${alice.userId}`)).toMatchObject({
      error: { code: "OVATION_ERR_REALTIME_MISSING_SCOPE", missing_scopes: ["alerts:manage", "widgets:manage"] },
    });
    expect(await join(s, `${alice.uuid}.twitch.106415581`)).toMatchObject({ error: { code: "OVATION_ERR_REALTIME_MISSING_SCOPE" } });
    expect(await join(s, `${alice.uuid}.twitch.106415581.chat`)).toEqual({ joined: `${alice.uuid}.twitch.106415581.chat` });
    const { token: widgets } = app.ovation.repos.tokens.create({ user_id: alice.userId, name: "widgets", scopes: ["widgets:manage"] });
    const w = track(await connect(url, { token: widgets }));
    expect(await join(w, `${alice.uuid}.ovation.${alice.userId}`)).toEqual({ joined: `${alice.uuid}.ovation.${alice.userId}` });
  });

  test("an anonymous socket may read public .chat rooms only", async () => {
    const s = track(await connect(url, {}));
    expect(await join(s, `${alice.uuid}.twitch.106415581.chat`)).toMatchObject({ joined: expect.any(String) });
    expect(await join(s, `${alice.uuid}.ovation.${alice.userId}`)).toMatchObject({ error: { code: "OVATION_ERR_REALTIME_ROOM_FORBIDDEN" } });
  });

  test("alerts reach every room of the user once, and not other users", async () => {
    const own = track(await connect(url, { token: alice.token }));
    await join(own, `${alice.uuid}.ovation.${alice.userId}`);
    await join(own, `${alice.uuid}.twitch.106415581`);
    const other = track(await connect(url, { token: bob.token }));
    await join(other, `${bob.uuid}.ovation.${bob.userId}`);
    const received: string[] = [];
    own.on("notifysub", (n) => received.push(n.notification.id));
    const leaked: string[] = [];
    other.on("notifysub", (n) => leaked.push(n.notification.id));
    const first = nextEvent(own, "notifysub");
    const res = await postJson(`${url}/v1/alerts`, alice.token, { template: "follow", data: { name: "Zoe" } });
    expect(res.status).toBe(201);
    expect((await first).notification.id).toBe((res.json["notification"] as { id: string }).id);
    const marker = await postJson(`${url}/v1/alerts`, alice.token, { template: "raid", data: { name: "M", count: 2 } });
    const markerId = (marker.json["notification"] as { id: string }).id;
    const deadline = Date.now() + 10_000;
    while (!received.includes(markerId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(received).toEqual([(res.json["notification"] as { id: string }).id, markerId]);
    expect(leaked).toEqual([]);
  });

  test("browser-source-updated on an alert set change, queue-control on queue actions", async () => {
    const s = track(await connect(url, { token: alice.token }));
    await join(s, `${alice.uuid}.ovation.${alice.userId}`);
    const updated = nextEvent(s, "browser-source-updated");
    const setId = app.ovation.repos.alertSets.activeForUser(alice.userId)?.id;
    await fetch(`${url}/v1/alert-configs/${setId}/activate`, { method: "POST", headers: { authorization: `Bearer ${alice.token}` } });
    expect(await updated).toEqual({ browser_source_id: null, alert_set_id: setId, reason: "alert-set-activated" });
    const control = nextEvent(s, "queue-control");
    await fetch(`${url}/v1/alerts/queue/skip`, { method: "POST", headers: { authorization: `Bearer ${alice.token}` } });
    expect(await control).toEqual({ action: "skip" });
  });
});

describe("queue control in every browser source", () => {
  test("two browser sources of the user (and only they) receive every queue action and a replay, in order", async () => {
    const setId = app.ovation.repos.alertSets.activeForUser(alice.userId)?.id;
    const sourceA = app.ovation.repos.browserSources.findOrCreate(alice.userId, "alerts", null).record;
    const sourceB = app.ovation.repos.browserSources.findOrCreate(alice.userId, "alerts", String(setId)).record;
    const bobSource = app.ovation.repos.browserSources.findOrCreate(bob.userId, "alerts", null).record;
    const open = async (token: string, room: string) => {
      const socket = track(await connect(url, { browserSourceToken: token }));
      const seen: string[] = [];
      socket.on("queue-control", (c) => seen.push(c.action));
      socket.on("notifysub", (n) => {
        if (n.ovation?.replay === true) seen.push(`replay ${n.notification.id}`);
      });
      expect(await join(socket, room)).toEqual({ joined: room });
      return seen;
    };
    const own = `${alice.uuid}.ovation.${alice.userId}`;
    const a = await open(sourceA.access_token, own);
    const b = await open(sourceB.access_token, `${alice.uuid}.twitch.106415581`);
    const other = await open(bobSource.access_token, `${bob.uuid}.ovation.${bob.userId}`);
    const logged = await postJson(`${url}/v1/alerts`, alice.token, { template: "follow", data: { name: "Again" } });
    const id = (logged.json["notification"] as { id: string }).id;
    for (const action of ["pause", "skip", "clear", "resume"]) {
      expect((await postJson(`${url}/v1/alerts/queue/${action}`, alice.token, {})).status).toBe(200);
    }
    expect((await postJson(`${url}/v1/alerts/queue/replay`, alice.token, { notification_id: id })).status).toBe(200);
    const expected = ["pause", "skip", "clear", "resume", `replay ${id}`];
    const deadline = Date.now() + 10_000;
    while ((a.length < expected.length || b.length < expected.length) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(a).toEqual(expected);
    expect(b).toEqual(expected);
    expect(other).toEqual([]);
  });
});

describe("registered authenticators (the identity session cookie hook)", () => {
  test("are consulted for same-origin or origin-less handshakes only", async () => {
    app.ovation.socketAuthenticators.push((handshake) => (handshake.headers.cookie?.includes("session=alice") ? { kind: "session", userId: alice.userId } : null));
    const own = `${alice.uuid}.ovation.${alice.userId}`;
    const plain = track(await connect(url, {}, { cookie: "session=alice" }));
    expect(await join(plain, own)).toEqual({ joined: own });
    const sameSite = track(await connect(url, {}, { cookie: "session=alice", origin: "http://127.0.0.1:8080" }));
    expect(await join(sameSite, own)).toEqual({ joined: own });
    const foreign = track(await connect(url, {}, { cookie: "session=alice", origin: "https://evil.example" }));
    expect(await join(foreign, own)).toMatchObject({ error: { code: "OVATION_ERR_REALTIME_ROOM_FORBIDDEN" } });
  });
});

describe("sticky sessions", () => {
  test("the handshake sets the serverid cookie unless the client already sends it; /server-ids lists it", async () => {
    const fresh = await fetch(`${url}/socket.io/?EIO=4&transport=polling`);
    expect(fresh.headers.get("set-cookie")).toMatch(/^serverid=node-a;/);
    const sticky = await fetch(`${url}/socket.io/?EIO=4&transport=polling`, { headers: { cookie: "serverid=node-a" } });
    expect(sticky.status).toBe(200);
    expect(sticky.headers.get("set-cookie")).toBeNull();
    const stale = await fetch(`${url}/socket.io/?EIO=4&transport=polling`, { headers: { cookie: "serverid=node-z" } });
    expect(stale.headers.get("set-cookie")).toMatch(/^serverid=node-a;/);
    expect(await (await fetch(`${url}/server-ids`)).json()).toEqual(["node-a"]);
  });
});
