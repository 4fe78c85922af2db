import { PluginHost } from "@ovation/core";
import type { NotifySub } from "@ovation/core";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TwitchPlugin } from "../plugin.js";
import { FakeEventSubServer } from "../testing/fake-eventsub-server.js";
import { FakeHelix } from "../testing/fake-helix.js";
import { FakeIrcServer } from "../testing/fake-irc-server.js";
import { SUBSCRIPTIONS } from "../eventsub/subscriptions.js";
import { ircLine } from "./fixtures.js";
import { until } from "@ovation/core/plugin-kit/testing";

const logger = pino({ level: "silent" });

describe("Twitch EventSub and Helix against loopback fakes", () => {
  let irc: FakeIrcServer;
  let eventsub: FakeEventSubServer;
  let helix: FakeHelix;
  let host: PluginHost | null = null;

  beforeAll(async () => {
    irc = await FakeIrcServer.start({ dallas: "12345678" });
    helix = await FakeHelix.start();
  });
  afterAll(async () => {
    await irc.close();
    await helix.close();
  });
  afterEach(async () => {
    await host?.stop();
    host = null;
    await eventsub.close();
  });

  const refreshed: string[] = [];

  async function connect(token = "good-token", keepaliveSeconds = 10) {
    eventsub = await FakeEventSubServer.start();
    eventsub.keepaliveSeconds = keepaliveSeconds;
    const alerts: NotifySub[] = [];
    const chat: string[] = [];
    host = new PluginHost({
      logger,
      alerts: (n) => void alerts.push(n),
      chatRoom: (event) => void (event.event === "message" && chat.push(event.payload.message)),
    });
    const plugin = new TwitchPlugin({
      channels: [{ id: "owner-1", login: "dallas" }],
      username: "ovationbot",
      token,
      clientId: "client-1",
      clientSecret: "secret-1",
      refreshToken: helix.refreshToken,
      irc: { server: "127.0.0.1", port: irc.port, secure: false },
      ircReconnectMs: 50,
      helixUrl: `${helix.base}/helix`,
      tokenUrl: `${helix.base}/oauth2/token`,
      eventsub: { enabled: true, url: eventsub.url, keepaliveGraceMs: 300, reconnectDelayMs: { min: 50, max: 500 } },
    }, { onTokensRefreshed: (tokens) => void refreshed.push(`${tokens.accessToken}/${tokens.refreshToken ?? ""}`) });
    host.register(plugin);
    await host.connect("twitch");
    return { host, plugin, alerts, chat };
  }

  function subscriptionPosts(sessionId?: string) {
    return helix
      .of("POST", "/eventsub/subscriptions")
      .filter((c) => sessionId === undefined || (c.body as { transport: { session_id: string } }).transport.session_id === sessionId);
  }

  it("creates every subscription for the session and routes notifications to the alert log once", async () => {
    const { host, plugin, alerts } = await connect();
    const session = eventsub.current.id;
    const posts = subscriptionPosts(session);
    expect(posts.map((c) => (c.body as { type: string }).type)).toHaveLength(SUBSCRIPTIONS.length);
    expect(posts[0]?.body).toEqual({
      type: "channel.follow",
      version: "2",
      condition: { broadcaster_user_id: "12345678", moderator_user_id: "999" },
      transport: { method: "websocket", session_id: session },
    });
    expect(posts.every((c) => c.clientId === "client-1" && c.token === "good-token")).toBe(true);
    expect(plugin.channels()[0]).toMatchObject({ platform_id: "12345678", avatar_url: "https://img.example/dallas.png" });

    eventsub.notify("channel.follow");
    eventsub.notify("channel.cheer");
    eventsub.notify("channel.follow"); // Twitch redelivery: same message id
    eventsub.notify("stream.online");
    await until(() => alerts.length >= 3, "three notifications");
    await new Promise((r) => setTimeout(r, 100));
    expect(alerts.map((n) => n.subscription.type)).toEqual(["follow", "cheer", "stream.online"]);
    expect(alerts[1]?.event).toMatchObject({ name: "Cool_User", amount: 1000 });
    expect(host.health()[0]).toMatchObject({ status: "connected", counters: { notifications: 3 } });
  });

  it("takes subs from EventSub while it is connected: the same sub on IRC adds its chat message, not a second alert", async () => {
    const { plugin, alerts, chat } = await connect();
    await until(() => plugin.eventSubLive, "EventSub live");
    eventsub.notify("channel.subscription.message");
    irc.publish("dallas", ircLine("resub-usernotice"));
    await until(() => alerts.length >= 1 && chat.length >= 1, "the EventSub alert and the chat message");
    await new Promise((r) => setTimeout(r, 150));
    expect(alerts.map((n) => n.subscription.type)).toEqual(["re-subscribe"]);
    expect((alerts[0]?.ovation?.platform_data as { event: Record<string, unknown> }).event["source"]).toBeUndefined();
    expect(chat).toEqual(["Great stream -- keep it up!"]);
  });

  it("follows session_reconnect to the new URL before closing the old, losing and repeating nothing", async () => {
    const { alerts } = await connect();
    const before = subscriptionPosts().length;
    const old = eventsub.reconnect();
    // Still delivered on the old connection while the client moves.
    eventsub.notify("channel.raid", { session: old });
    await until(() => eventsub.sessions.length === 2 && eventsub.closedByClient === 1, "the client to move and close the old connection");
    const moved = eventsub.current;
    expect(moved).not.toBe(old);
    eventsub.notify("channel.raid", { session: moved }); // overlap: same id on the new connection
    eventsub.notify("channel.subscribe", { session: moved });
    await until(() => alerts.length >= 2, "two notifications");
    await new Promise((r) => setTimeout(r, 100));
    expect(alerts.map((n) => n.subscription.type)).toEqual(["raid", "subscribe"]);
    // Subscriptions carry over to the new connection: none created again.
    expect(subscriptionPosts().length).toBe(before);
  });

  it("starts a fresh session with new subscriptions when keepalives stop", async () => {
    const { host, alerts } = await connect("good-token", 1);
    const first = eventsub.current.id;
    eventsub.silence();
    await until(
      () => eventsub.connectionCount >= 2 && eventsub.current.id !== first && subscriptionPosts(eventsub.current.id).length === SUBSCRIPTIONS.length,
      "a new session with its subscriptions",
      20_000,
    );
    await until(() => host.health()[0]?.status === "connected", "connected again");
    eventsub.notify("channel.follow");
    await until(() => alerts.length >= 1, "a notification on the new session");
  });

  it("reports a revocation and a missing scope in health", async () => {
    helix.forbiddenTypes.add("channel.cheer");
    try {
      const { host } = await connect();
      expect(host.health()[0]).toMatchObject({ status: "degraded", detail: expect.stringContaining("channel.cheer for #dallas (needs scope bits:read)") });
      eventsub.revoke();
      await until(() => host.health()[0]?.detail?.includes("revoked"), "the revocation");
      expect(host.health()[0]?.detail).toBe("EventSub channel.follow revoked (authorization_revoked)");
    } finally {
      helix.forbiddenTypes.clear();
    }
  });

  it("refreshes an expired token once on 401 and retries, and logs chat in with the new token", async () => {
    const refreshesBefore = helix.refreshCount;
    const { host, plugin } = await connect("expired-token");
    expect(helix.refreshCount).toBe(refreshesBefore + 1);
    const fresh = `fresh-token-${helix.refreshCount}`;
    expect(helix.calls.filter((c) => c.token === "expired-token")).toHaveLength(1);
    expect(irc.received).toContain(`PASS oauth:${fresh}`);
    expect(refreshed.at(-1)).toBe(`${fresh}/${helix.refreshToken}`);
    const channel = plugin.channels()[0]!;
    await host.send("twitch", { channel, text: "Big news", send_as: "announce", reply_to: null });
    const announcement = helix.of("POST", "/chat/announcements").at(-1);
    expect(announcement?.body).toEqual({ message: "Big news", color: "primary" });
    expect(Object.fromEntries(announcement?.query ?? [])).toEqual({ broadcaster_id: "12345678", moderator_id: "999" });
    expect(announcement?.token).toBe(fresh);
  });

  it("reports a channel Twitch does not know, and serves the others", async () => {
    eventsub = await FakeEventSubServer.start();
    host = new PluginHost({ logger });
    host.register(
      new TwitchPlugin({
        channels: [
          { id: "owner-1", login: "dallas" },
          { id: "owner-2", login: "ghost" },
        ],
        username: "ovationbot",
        token: "good-token",
        clientId: "client-1",
        irc: { server: "127.0.0.1", port: irc.port, secure: false },
        helixUrl: `${helix.base}/helix`,
        eventsub: { enabled: true, url: eventsub.url },
        joinTimeoutMs: 500,
      }),
    );
    await host.connect("twitch");
    expect(host.health()[0]).toMatchObject({ status: "degraded", detail: "unknown Twitch channel(s): #ghost" });
    const session = eventsub.current.id;
    const conditions = subscriptionPosts(session).map((c) => JSON.stringify((c.body as { condition: unknown }).condition));
    expect(conditions.every((c) => c.includes("12345678"))).toBe(true);
  });

  it("explains a refused token that cannot be refreshed", async () => {
    eventsub = await FakeEventSubServer.start();
    host = new PluginHost({ logger });
    host.register(
      new TwitchPlugin({
        channels: [{ id: "owner-1", login: "dallas" }],
        username: "ovationbot",
        token: "revoked-token",
        clientId: "client-1",
        irc: { server: "127.0.0.1", port: irc.port, secure: false },
        helixUrl: `${helix.base}/helix`,
        eventsub: { enabled: true, url: eventsub.url },
      }),
    );
    await expect(host.connect("twitch")).rejects.toThrow(/cannot be refreshed: configure a refresh token and client secret/);
    expect(host.health()[0]?.status).toBe("failed");
  });

  it("deletes messages, times users out and looks users and channels up through Helix", async () => {
    const { host, plugin } = await connect();
    const channel = plugin.channels()[0]!;
    await host.deleteMessage("twitch", channel, "abc-123");
    await host.timeout("twitch", channel, "4242", 600, "spam");
    expect(Object.fromEntries(helix.of("DELETE", "/moderation/chat").at(-1)?.query ?? [])).toEqual({
      broadcaster_id: "12345678",
      moderator_id: "999",
      message_id: "abc-123",
    });
    expect(helix.of("POST", "/moderation/bans").at(-1)?.body).toEqual({ data: { user_id: "4242", duration: 600, reason: "spam" } });
    const lookups = host.lookups("twitch");
    expect(await lookups?.user("Dallas")).toEqual({ id: "12345678", name: "Dallas", type: "partner", description: "about dallas", view_count: 0 });
    expect(await lookups?.user("nobody")).toBeNull();
    expect(await lookups?.user("../../etc")).toBeNull();
    expect(await lookups?.channel("12345678")).toEqual({
      id: "12345678",
      name: "Dallas",
      url: "https://twitch.tv/dallas",
      language: "en",
      title: "Chess all day",
      game: "Chess",
    });
  });
});
