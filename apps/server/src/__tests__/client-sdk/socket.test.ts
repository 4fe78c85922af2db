import { afterEach, describe, expect, it } from "vitest";
import { OvationSocketError, connect } from "@ovation/client";
import type { OvationSocket, ServerEventPayload, SocketStatus } from "@ovation/client";
import { waitFor } from "../socket-helpers.js";
import { useClientFixture } from "./fixture.js";

type Notification = ServerEventPayload<"notifysub">;

/** Collects what a socket receives and reports. */
function record(socket: OvationSocket): { alerts: Notification[]; statuses: SocketStatus[] } {
  const seen = { alerts: [] as Notification[], statuses: [] as SocketStatus[] };
  socket.on("notifysub", (n) => seen.alerts.push(n));
  socket.onStatus((s) => seen.statuses.push(s));
  return seen;
}

describe("@ovation/client/socket against the real server", () => {
  const fx = useClientFixture();
  const open: OvationSocket[] = [];
  const track = (socket: OvationSocket) => {
    open.push(socket);
    return socket;
  };
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });

  /** A fresh alerts browser source (its own first-join time, so no backlog of other tests). */
  async function browserSource(identifier?: string) {
    let set: { id: number } | undefined;
    if (identifier !== undefined) {
      const active = (await fx.client.alertSets.list()).data.find((a) => a.active);
      if (!active) throw new Error("no active alert set");
      const { id: _id, user_id: _user, created_at: _created, updated_at: _updated, active: _active, ...document } = active;
      set = await fx.client.alertSets.create({ ...document, name: `set ${identifier}`, version: 4 });
    }
    const source = await fx.client.browserSources.generate({ browser_source_type: "alerts", ...(set ? { identifier: String(set.id) } : {}) });
    const config = await fx.client.browserSources.config(source.access_token);
    return { source, room: config.room };
  }

  it("a browser source joins its room, receives a test alert with its typed payload and acknowledges it", async () => {
    const { source, room } = await browserSource();
    const cookies: Array<string | undefined> = [];
    const onConnection = (conn: { request: { headers: { cookie?: string } } }) => cookies.push(conn.request.headers.cookie);
    fx.app.ovation.io.engine.on("connection", onConnection);
    const socket = track(connect({ url: fx.base, browserSourceToken: source.access_token, serverId: "auto", io: { transports: ["websocket"] } }));
    const seen = record(socket);
    await socket.whenConnected();
    fx.app.ovation.io.engine.off("connection", onConnection);
    // serverId "auto": one of GET /server-ids, sent in Node as the serverid cookie of the handshake.
    const serverId = (await fx.client.service.health()).server_id;
    expect(socket.serverId).toBe(serverId);
    expect(cookies).toEqual([`serverid=${encodeURIComponent(serverId)}`]);
    expect(await socket.join(room)).toEqual({ room });

    const sent = await fx.client.alerts.test({ template: "follow", platform: "twitch" });
    await waitFor(() => seen.alerts.length > 0, 10_000, "the test alert");
    const got = seen.alerts[0];
    expect(got?.notification.id).toBe(sent.notification.id);
    expect(got?.subscription.type).toBe("follow");
    expect(got?.ovation?.test).toBe(true);

    socket.ack(sent.notification.id);
    let acknowledged: number[] = [];
    for (let i = 0; i < 100 && !acknowledged.includes(source.id); i++) {
      const log = await fx.client.alerts.log({ limit: 10 });
      acknowledged = log.data.find((e) => e.notification.notification.id === sent.notification.id)?.acknowledged_by ?? [];
      if (!acknowledged.includes(source.id)) await new Promise((r) => setTimeout(r, 20));
    }
    expect(acknowledged).toContain(source.id);

    // An explicit replay passes although the alert was acknowledged; a second plain delivery does not.
    await fx.client.alerts.replay(sent.notification.id);
    await waitFor(() => seen.alerts.length === 2, 10_000, "the replay");
    expect(seen.alerts[1]?.ovation?.replay).toBe(true);
    const [serverSocket] = await fx.app.ovation.io.fetchSockets();
    serverSocket?.emit("notifysub", sent);
    const marker = await fx.client.alerts.test({ template: "follow", platform: "twitch" });
    await waitFor(() => seen.alerts.some((a) => a.notification.id === marker.notification.id), 10_000, "the marker alert");
    expect(seen.alerts.map((a) => a.notification.id)).toEqual([sent.notification.id, sent.notification.id, marker.notification.id]);
  });

  it("a bearer token joins the user's own room; a foreign room is refused with a typed error", async () => {
    const me = await fx.client.users.account();
    const socket = track(connect({ url: fx.base, token: async () => fx.user.token, io: { transports: ["websocket"] } }));
    await socket.whenConnected();
    const own = `${me.uuid}.ovation.${me.id}`;
    expect(await socket.join(own)).toEqual({ room: own });
    const refused = await socket.join(`00000000-0000-4000-8000-000000000000.ovation.999`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OvationSocketError);
    expect((refused as OvationSocketError).code).toBe("OVATION_ERR_REALTIME_ROOM_FORBIDDEN");
  });

  it("recovers the alerts missed during a network drop (socket.io connection-state recovery)", async () => {
    const { source, room } = await browserSource("drop");
    const socket = track(connect({ url: fx.base, browserSourceToken: source.access_token, rooms: [room], io: { transports: ["websocket"], reconnectionDelay: 200, reconnectionDelayMax: 200 } }));
    const seen = record(socket);
    await waitFor(() => seen.statuses.some((s) => s.state === "connected"), 10_000, "connected");
    await waitFor(() => fx.app.ovation.io.sockets.adapter.rooms.get(room)?.size === 1, 10_000, "joined");
    const first = await fx.client.alerts.test({ template: "follow", platform: "twitch" });
    await waitFor(() => seen.alerts.length === 1, 10_000, "the first alert");

    socket.raw.io.engine.close(); // the network drops
    await waitFor(() => seen.statuses.some((s) => s.state === "disconnected"), 10_000, "disconnected");
    const missed = await fx.client.alerts.test({ template: "follow", platform: "twitch" });
    await waitFor(() => seen.alerts.length === 2, 10_000, "the missed alert");
    expect(seen.alerts.map((a) => a.notification.id)).toEqual([first.notification.id, missed.notification.id]);
    expect(seen.statuses.filter((s) => s.state === "connected").map((s) => s.recovered)).toEqual([false, true]);
  });

  it("rejoins and gets the unacknowledged alert after the server ends the connection (no recovery: the server's replay)", async () => {
    const { source, room } = await browserSource("kick");
    const socket = track(connect({ url: fx.base, browserSourceToken: source.access_token, rooms: () => [room], retry: { minDelayMs: 100, maxDelayMs: 200 }, io: { transports: ["websocket"] } }));
    const seen = record(socket);
    await waitFor(() => fx.app.ovation.io.sockets.adapter.rooms.get(room)?.size === 1, 10_000, "joined");
    const shown = await fx.client.alerts.test({ template: "follow", platform: "twitch" });
    await waitFor(() => seen.alerts.length === 1, 10_000, "the first alert");
    socket.ack(shown.notification.id);

    for (const s of await fx.app.ovation.io.in(room).fetchSockets()) s.disconnect(true);
    await waitFor(() => seen.statuses.some((s) => s.state === "disconnected" && s.reason === "io server disconnect"), 10_000, "the server's disconnect");
    const missed = await fx.client.alerts.test({ template: "follow", platform: "twitch" });
    await waitFor(() => seen.alerts.length === 2, 10_000, "the replayed alert");
    expect(seen.alerts.map((a) => a.notification.id)).toEqual([shown.notification.id, missed.notification.id]);
    expect(seen.statuses.filter((s) => s.state === "connected").map((s) => s.recovered)).toEqual([false, false]);
  });

  it("reports a refused handshake with the server's code", async () => {
    const socket = track(connect({ url: fx.base, browserSourceToken: "not-a-token", retry: { minDelayMs: 60_000 }, io: { transports: ["websocket"] } }));
    const seen = record(socket);
    await waitFor(() => seen.statuses.some((s) => s.error !== null), 10_000, "the refusal");
    expect(seen.statuses.find((s) => s.error !== null)?.error?.code).toBe("OVATION_ERR_REALTIME_UNAUTHENTICATED");
    socket.close();
    expect(seen.statuses.at(-1)?.state).toBe("closed");
  });
});
