import { PluginHost } from "@ovation/core";
import type { ChatEvent, ChatRoomEvent, HostAction, NotifySub } from "@ovation/core";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TwitchPlugin } from "../plugin.js";
import { FakeIrcServer, privmsgLine } from "../testing/fake-irc-server.js";
import { ircLine } from "./fixtures.js";
import { until } from "@ovation/core/plugin-kit/testing";

const logger = pino({ level: "silent" });

describe("Twitch chat over a fake IRC-over-WebSocket server", () => {
  let server: FakeIrcServer;
  beforeAll(async () => {
    server = await FakeIrcServer.start({ dallas: "12345678" });
  });
  afterAll(async () => {
    await server.close();
  });

  function setup(options: { username?: string; token?: string }, runtime?: (event: ChatEvent) => HostAction[]) {
    const chat: ChatEvent[] = [];
    const room: ChatRoomEvent[] = [];
    const alerts: NotifySub[] = [];
    const host = new PluginHost({
      logger,
      alerts: (notification) => void alerts.push(notification),
      chatRoom: (event) => {
        room.push(event);
        if (event.event === "message") chat.push(event.payload);
      },
      ...(runtime ? { runtime } : {}),
    });
    const plugin = new TwitchPlugin({
      channels: [{ id: "owner-1", login: "dallas" }],
      irc: { server: "127.0.0.1", port: server.port, secure: false },
      ircReconnectMs: 50,
      ...options,
    });
    host.register(plugin);
    return { host, plugin, chat, room, alerts };
  }

  it("without EventSub, turns USERNOTICE subs, gifts and raids into notifications, and a resub's message into chat", async () => {
    const { host, plugin, chat, room, alerts } = setup({});
    await host.connect("twitch");
    expect(plugin.eventSubLive).toBe(false);
    for (const name of ["resub-usernotice", "submysterygift", "subgift-in-bundle", "subgift", "announcement", "clearchat-user"]) server.publish("dallas", ircLine(name));
    server.publish("dallas", ircLine("resub-usernotice")); // a replay counts once
    await until(() => (alerts.length >= 5 && room.some((e) => e.event === "clear-chat") ? true : undefined), "five notifications and the clear-chat");
    await new Promise((r) => setTimeout(r, 100));
    expect(alerts.map((n) => n.subscription.type)).toEqual(["re-subscribe", "gift-subscribe", "subscribe", "gift-subscribe", "subscribe"]);
    expect(chat.map((e) => [e.type, e.message])).toEqual([
      ["message", "Great stream -- keep it up!"],
      ["announcement", "Hello chat, new video is up!"],
    ]);
    expect(room.find((e) => e.event === "clear-chat")?.payload).toEqual({ channel: "owner-1", user_platform_id: "87654321", duration_seconds: 350 });
    await host.stop();
  });

  it("reads chat anonymously, normalizes it and refuses to send", async () => {
    const { host, plugin, chat, room } = setup({});
    await host.connect("twitch");
    expect(plugin.readOnly).toBe(true);
    expect(host.health()[0]?.status).toBe("connected");
    expect(server.received.some((l) => /^NICK justinfan\d+$/.test(l))).toBe(true);
    expect(plugin.channels()[0]).toMatchObject({ id: "owner-1", platform_id: "12345678", username: "dallas" });

    server.publish("dallas", ircLine("command"));
    server.publish("dallas", ircLine("announcement"));
    server.publish("dallas", ircLine("clearmsg"));
    server.publish("dallas", ircLine("clearchat-all"));
    await until(() => (room.length >= 4 ? true : undefined), "four room events");
    expect(chat.map((e) => [e.type, e.message])).toEqual([
      ["message", "!hug @Alice"],
      ["announcement", "Hello chat, new video is up!"],
    ]);
    expect(room.slice(2).map((e) => [e.event, e.payload])).toEqual([
      ["delete-message", { id: "abc-123-def", channel: "owner-1" }],
      ["clear-chat", { channel: "owner-1" }],
    ]);
    await expect(
      plugin.send({ channel: plugin.channels()[0]!, text: "hi", send_as: "say", reply_to: null }),
    ).rejects.toMatchObject({ code: "OVATION_ERR_TWITCH_READ_ONLY" });
    await host.stop();
  });

  it("answers commands as a bot: say, reply with the parent id, /me action, no command injection", async () => {
    const { host } = setup({ username: "ovationbot", token: "oauth:abc123" }, (event) => {
      if (!event.message.startsWith("!hug")) return [];
      return [
        { text: `${event.user.username} sends a hug`, send_as: "say" },
        { text: "thanks!", send_as: "reply" },
        { text: "dances", send_as: "action" },
        { text: "/ban dallas\r\nPRIVMSG #dallas :injected", send_as: "say" },
      ];
    });
    await host.connect("twitch");
    expect(server.received).toContain("PASS oauth:abc123");
    server.publish("dallas", ircLine("command"));
    await server.waitFor((l) => l.includes("ACTION dances"));
    await host.idle();
    const sent = server.received.filter((l) => l.includes("PRIVMSG #dallas"));
    expect(sent).toEqual([
      "PRIVMSG #dallas :Ronni sends a hug",
      "@reply-parent-msg-id=b34ccfc7-4977-403a-8a94-33c6bac34fb8 PRIVMSG #dallas :thanks!",
      "PRIVMSG #dallas :\u0001ACTION dances\u0001",
      "PRIVMSG #dallas :\u200b/ban dallas PRIVMSG #dallas :injected",
    ]);
    await host.stop();
  });

  it("loses no message and duplicates none across a RECONNECT", async () => {
    const { host, chat } = setup({});
    await host.connect("twitch");
    const before = server.connectionCount;
    const ids = Array.from({ length: 12 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    for (const id of ids.slice(0, 5)) server.publish("dallas", privmsgLine("dallas", "12345678", id, `message ${id.slice(-2)}`));
    await until(() => (chat.length >= 5 ? true : undefined), "the first five messages");
    // The server hands over: messages published meanwhile are queued, and the new connection gets
    // the last three already-delivered messages again (overlap), which must not count twice.
    server.replayOnJoin = 3;
    server.reconnect();
    for (const id of ids.slice(5)) server.publish("dallas", privmsgLine("dallas", "12345678", id, `message ${id.slice(-2)}`));
    await until(() => (chat.length >= 12 ? true : undefined), "all twelve messages");
    await new Promise((r) => setTimeout(r, 200));
    expect(server.connectionCount).toBeGreaterThan(before);
    expect(chat.map((e) => e.id)).toEqual(ids);
    expect(host.health()[0]?.counters.chat).toBe(12);
    server.replayOnJoin = 0;
    await host.stop();
  });

  it("answers the server's PING and refuses an oversized line with a reason instead of crashing", async () => {
    const { host, chat } = setup({});
    await host.connect("twitch");
    const connection = [...server.connections].at(-1);
    connection?.ws.send("PING :tmi.twitch.tv\r\n");
    await server.waitFor((l) => l.startsWith("PONG"));
    server.publish("dallas", privmsgLine("dallas", "12345678", "99999999-0000-4000-8000-000000000001", "x".repeat(10_001)));
    server.publish("dallas", privmsgLine("dallas", "12345678", "99999999-0000-4000-8000-000000000002", "still alive"));
    await until(() => (chat.length >= 1 ? true : undefined), "the next message");
    expect(chat.map((e) => e.message)).toEqual(["still alive"]);
    expect(host.health()[0]?.counters).toMatchObject({ chat: 1, rejected: 1 });
    await host.stop();
  });

  it("fails clearly when Twitch refuses the chat login", async () => {
    const { host } = setup({ username: "ovationbot", token: "oauth:bad-token" });
    await expect(host.connect("twitch")).rejects.toMatchObject({ code: "OVATION_ERR_PLUGIN_FAILED" });
    expect(host.health()[0]).toMatchObject({ status: "failed", detail: expect.stringContaining("Login authentication failed") });
    await host.stop();
  });

  it("rejects invalid options naming the field", () => {
    expect(() => new TwitchPlugin({ channels: [{ id: "x", login: "not a login!" }] })).toThrow(
      /options\.channels\.0\.login: must be a Twitch login/,
    );
    expect(() => new TwitchPlugin({ channels: [{ id: "x", login: "dallas" }], username: "bot" })).toThrow(/username and options.token go together/);
  });

  it("a chat server out of reach at start is disconnected and retried, not failed; it connects once the server answers (issue 26, bug 4)", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const host = new PluginHost({ logger, alerts: () => undefined, chatRoom: () => undefined });
    host.register(new TwitchPlugin({ channels: [{ id: "owner-1", login: "dallas" }], irc: { server: "127.0.0.1", port, secure: false }, ircReconnectMs: 50, joinTimeoutMs: 500 }));
    await host.connect("twitch");
    expect(host.health()[0]).toMatchObject({ status: "disconnected", detail: expect.stringContaining("reconnecting") });
    const late = await FakeIrcServer.start({ dallas: "12345678" }, port);
    try {
      await until(() => (host.health()[0]?.status === "connected" ? true : undefined), "connected once the server answers", 20_000);
    } finally {
      await host.stop();
      await late.close();
    }
  }, 30_000);

  it("a linked channel served while the chat connection is down is joined once it is up, and is starting, not serving, until then (issue 25/29)", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const chat: ChatEvent[] = [];
    const host = new PluginHost({ logger, alerts: () => undefined, chatRoom: (event) => void (event.event === "message" && chat.push(event.payload)) });
    host.register(new TwitchPlugin({ channels: [], username: "ovationbot", token: "oauth:abc", irc: { server: "127.0.0.1", port, secure: false }, ircReconnectMs: 50, joinTimeoutMs: 300 }));
    await host.connect("twitch");
    expect(host.health()[0]?.status).toBe("disconnected");
    // The JOIN of this channel is tried while nothing listens.
    await host.serveChannel("twitch", { id: "owner-9", connection_id: 9, platform_user_id: "999", username: "dallas", avatar_url: "", scopes: [] });
    expect(host.channelStatus("twitch")[0]).toMatchObject({ state: "starting", detail: expect.stringContaining("waiting to join") });
    const late = await FakeIrcServer.start({ dallas: "999" }, port);
    try {
      await until(() => (host.channelStatus("twitch")[0]?.state === "serving" ? true : undefined), "the channel joined once the server answers", 20_000);
      expect(late.received).toContain("JOIN #dallas");
      late.publish("dallas", privmsgLine("dallas", "999", "m-late-1", "hello after the outage"));
      await until(() => chat.find((e) => e.message === "hello after the outage"), "its chat");
    } finally {
      await host.stop();
      await late.close();
    }
  }, 30_000);

  it("a JOIN Twitch left unanswered is asked again until the channel is joined (issue 25/29)", async () => {
    const chat: ChatEvent[] = [];
    const host = new PluginHost({ logger, alerts: () => undefined, chatRoom: (event) => void (event.event === "message" && chat.push(event.payload)) });
    host.register(new TwitchPlugin({ channels: [], username: "ovationbot", token: "oauth:abc", irc: { server: "127.0.0.1", port: server.port, secure: false }, ircReconnectMs: 50, joinTimeoutMs: 300 }));
    try {
      await host.connect("twitch");
      const before = server.received.length;
      // No ROOMSTATE answers the first JOIN (the channel is unknown to the server yet).
      await host.serveChannel("twitch", { id: "owner-7", connection_id: 7, platform_user_id: "777", username: "latecomer", avatar_url: "", scopes: [] });
      expect(host.channelStatus("twitch")[0]).toMatchObject({ state: "starting" });
      server.addRoom("latecomer", "777");
      await until(() => (host.channelStatus("twitch")[0]?.state === "serving" ? true : undefined), "joined on a later JOIN", 10_000);
      expect(server.received.slice(before).filter((l) => l === "JOIN #latecomer").length).toBeGreaterThanOrEqual(2);
      server.publish("latecomer", privmsgLine("latecomer", "777", "m-late-2", "heard at last"));
      await until(() => chat.find((e) => e.message === "heard at last"), "its chat");
    } finally {
      await host.stop();
    }
  }, 30_000);

  it("a channel released or served again while its JOIN waits ends serving once joined, and a channel released meanwhile is not joined (issue 25)", async () => {
    // The channel assignment of several nodes releases a channel and takes it again, or serves it
    // again with new tokens, while the first JOIN still waits for its answer (a loaded node).
    const joinTimeoutMs = 3_000;
    const chat: ChatEvent[] = [];
    const host = new PluginHost({ logger, alerts: () => undefined, chatRoom: (event) => void (event.event === "message" && chat.push(event.payload)) });
    host.register(new TwitchPlugin({ channels: [], username: "ovationbot", token: "oauth:abc", irc: { server: "127.0.0.1", port: server.port, secure: false }, ircReconnectMs: 50, joinTimeoutMs }));
    const served = (connection: number, username: string) => ({ id: `owner-${connection}`, connection_id: connection, platform_user_id: String(connection * 111), username, avatar_url: "", scopes: [] });
    const state = (connection: number) => host.channelStatus("twitch").find((c) => c.connection_id === connection)?.state;
    try {
      await host.connect("twitch");
      const before = server.received.length;
      const sent = (line: string) => server.received.slice(before).includes(line);
      const startedAt = Date.now();
      // None of the three rooms exists yet: each first JOIN goes unanswered.
      const firsts = [host.serveChannel("twitch", served(1, "movedback")), host.serveChannel("twitch", served(2, "relinked")), host.serveChannel("twitch", served(3, "unlinked"))];
      await until(() => (["movedback", "relinked", "unlinked"].every((l) => sent(`JOIN #${l}`)) ? true : undefined), "the first JOINs");
      // 1 is released and taken again; 2 is served again (new tokens); 3 is served again and released while that call still parts it.
      await host.releaseChannel("twitch", 1);
      const again3 = host.serveChannel("twitch", served(3, "unlinked"));
      await host.releaseChannel("twitch", 3);
      for (const [login, connection] of [["movedback", 1], ["relinked", 2], ["unlinked", 3]] as const) server.addRoom(login, String(connection * 111));
      await Promise.all([host.serveChannel("twitch", served(1, "movedback")), host.serveChannel("twitch", served(2, "relinked")), again3]);
      await until(() => (state(1) === "serving" && state(2) === "serving" ? true : undefined), "both served channels joined", 10_000);
      // Past the first calls' join timeout: what they say then must not undo the later calls' "serving".
      await Promise.all(firsts);
      await new Promise((r) => setTimeout(r, Math.max(0, startedAt + joinTimeoutMs + 500 - Date.now())));
      expect([state(1), state(2), state(3)]).toEqual(["serving", "serving", undefined]);
      // The released channel was not joined after its release: its chat is not heard (another node answers it).
      const connection = [...server.connections].at(-1);
      expect(connection?.joined.has("unlinked")).toBe(false);
      server.publish("unlinked", privmsgLine("unlinked", "333", "m-released-1", "not for this node"));
      server.publish("movedback", privmsgLine("movedback", "111", "m-moved-1", "heard after the move back"));
      server.publish("relinked", privmsgLine("relinked", "222", "m-relinked-1", "heard after the new link"));
      await until(() => (chat.length >= 2 ? true : undefined), "the served channels' chat");
      await new Promise((r) => setTimeout(r, 200));
      expect(chat.map((e) => e.message).sort()).toEqual(["heard after the move back", "heard after the new link"]);
    } finally {
      await host.stop();
    }
  }, 30_000);

  it("after the chat connection drops, linked channels are starting until joined again, and join again within the shared join limit, not by tmi.js's own rejoin (issue 25)", async () => {
    // Several nodes share the bot account's join limit: every JOIN must be taken from it, including
    // the ones after a reconnect (tmi.js would send one per channel it had joined, 300 ms apart).
    const logins = ["dropone", "droptwo", "dropthree"];
    logins.forEach((login, i) => server.addRoom(login, String(500 + i)));
    let hold = false;
    let granted = 0;
    const quota = {
      take: async (_name: string, wanted: number) => {
        const units = hold ? 0 : wanted;
        granted += units;
        return units;
      },
      count: async () => 0,
      sum: async (_name: string, value: number) => value,
    };
    const chat: ChatEvent[] = [];
    const host = new PluginHost({ logger, alerts: () => undefined, chatRoom: (event) => void (event.event === "message" && chat.push(event.payload)) });
    host.register(new TwitchPlugin({ channels: [], username: "ovationbot", token: "oauth:abc", irc: { server: "127.0.0.1", port: server.port, secure: false }, ircReconnectMs: 50, joinTimeoutMs: 300 }, { quota }));
    const states = () => logins.map((login) => host.channelStatus("twitch").find((c) => c.username === login)?.state);
    const joinsOf = (lines: string[]) => lines.filter((l) => l.startsWith("JOIN ")).flatMap((l) => l.slice(5).split(",")).filter((c) => logins.includes(c.replace(/^#/, "")));
    try {
      await host.connect("twitch");
      await Promise.all(logins.map((username, i) => host.serveChannel("twitch", { id: `owner-d${i}`, connection_id: 40 + i, platform_user_id: String(500 + i), username, avatar_url: "", scopes: [] })));
      expect(states()).toEqual(["serving", "serving", "serving"]);
      hold = true;
      const before = server.received.length;
      const connectionsBefore = server.connectionCount;
      server.reconnect();
      await until(() => (states().every((s) => s === "starting") ? true : undefined), "every linked channel starting while it is not joined");
      expect(host.channelStatus("twitch")[0]?.detail).toContain("waiting to join");
      await until(() => (server.connectionCount > connectionsBefore && server.received.slice(before).some((l) => l.startsWith("NICK")) ? true : undefined), "the new chat connection");
      await new Promise((r) => setTimeout(r, 800));
      // Connected again, but the limit grants nothing yet: no JOIN of a linked channel was sent.
      expect(joinsOf(server.received.slice(before))).toEqual([]);
      expect(states()).toEqual(["starting", "starting", "starting"]);
      const grantedBefore = granted;
      hold = false;
      await until(() => (states().every((s) => s === "serving") ? true : undefined), "every linked channel joined again", 10_000);
      const rejoins = joinsOf(server.received.slice(before));
      expect(rejoins.map((c) => c.replace(/^#/, "")).sort()).toEqual([...new Set(rejoins.map((c) => c.replace(/^#/, "")))].sort());
      expect(new Set(rejoins).size).toBe(3);
      expect(rejoins.length).toBeLessThanOrEqual(granted - grantedBefore);
      server.publish("droptwo", privmsgLine("droptwo", "501", "m-drop-1", "heard after the drop"));
      await until(() => chat.find((e) => e.message === "heard after the drop"), "chat after the rejoin");
      await new Promise((r) => setTimeout(r, 200));
      expect(chat.filter((e) => e.message === "heard after the drop")).toHaveLength(1);
    } finally {
      await host.stop();
    }
  }, 30_000);
});
