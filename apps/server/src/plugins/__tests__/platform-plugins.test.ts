import type { ChatEvent, NotifySub, PlatformPlugin, PluginContext } from "@ovation/core";
import { CONSOLE_NAMESPACE } from "@ovation/plugin-console";
import type { ConsoleLineResult, ConsoleOutput, ConsoleReady } from "@ovation/plugin-console";
import { pino } from "pino";
import { io as connectClient } from "socket.io-client";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { bootstrap } from "../../first-run.js";
import { BUILT_IN_PLUGINS } from "../builtin-plugins.js";
import { tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { connect, join, listen, nextEvent, waitFor } from "../../__tests__/socket-helpers.js";

/** A plugin the test drives: it keeps its context so the test can emit platform events. */
class ProbePlugin implements PlatformPlugin {
  readonly metadata = { name: "probe", platform: "kick", version: "1.0.0", core: "^0.1.0" };
  readonly capabilities = { send: ["say" as const], moderation: { deleteMessage: false, timeout: false } };
  context: PluginContext | null = null;
  constructor(private readonly ownerId: string) {}
  channels() {
    return [{ id: this.ownerId, platform_id: "kick-room-9", username: "streamer", avatar_url: "" }];
  }
  async connect(context: PluginContext) {
    this.context = context;
  }
  async disconnect() {}
  async send() {}
  /** Kick's `user()`/`channel()` for templates: one known login, one known channel. */
  readonly lookups = {
    user: async (login: string) => (login === "kai" ? { id: "77", name: "Kai", type: "", description: "speedrunner", view_count: 1234 } : null),
    channel: async (id: string) =>
      id === "77" ? { id: "77", name: "Kai", url: "https://kick.com/kai", language: "en", title: "Any% run", game: "Celeste" } : null,
  };
}

function notification(id: string, type: string, data: NotifySub["event"] = {}): NotifySub {
  return {
    subscription: { type, version: "1", condition: { platform: "kick", platform_id: "kick-room-9" } },
    notification: { id, created_at: "2026-11-21T05:00:00.000000Z" },
    event: data,
    ovation: { template: null, test: false },
  };
}

function consoleSocket(url: string, auth: Record<string, unknown>): Socket {
  return connectClient(`${url}${CONSOLE_NAMESPACE}`, { auth, transports: ["websocket"], reconnection: false, forceNew: true, timeout: 10_000 });
}

async function openConsole(url: string, auth: Record<string, unknown>): Promise<{ socket: Socket; ready: ConsoleReady }> {
  const socket = consoleSocket(url, auth);
  const ready = await new Promise<ConsoleReady>((resolve, reject) => {
    socket.once("ready", resolve);
    socket.once("connect_error", reject);
  });
  return { socket, ready };
}

function say(socket: Socket, text: string): Promise<ConsoleLineResult> {
  return socket.timeout(10_000).emitWithAck("line", text) as Promise<ConsoleLineResult>;
}

describe("platform plugins in the server", () => {
  const data = tempDataDir();
  let app: OvationApp;
  let url: string;
  let token: string;
  let user: { id: number; uuid: string };
  const probe: { plugin: ProbePlugin | null } = { plugin: null };

  beforeAll(async () => {
    // The first user gets id 1; the probe plugin serves that user's Kick channel.
    probe.plugin = new ProbePlugin("1");
    app = await buildApp({
      config: testConfig(data.dir),
      logger: pino({ level: "silent" }),
      platforms: { env: {}, extra: [probe.plugin] },
    });
    const result = bootstrap(app.ovation.repos);
    if (result.kind !== "seeded") throw new Error("a fresh data directory is seeded");
    app.ovation.commands.reload(result.user.id);
    token = result.newToken ?? "";
    user = { id: result.user.id, uuid: result.user.uuid };
    url = await listen(app);
  });
  afterAll(async () => {
    await app.close();
    data.remove();
  });

  it("loads the console by default and reports health", () => {
    expect(app.platformPlugins.health().map((h) => [h.name, h.status])).toEqual([
      ["console", "connected"],
      ["probe", "connected"],
    ]);
  });

  it("answers a typed command through the bot runtime and publishes the line to the public .chat room", { timeout: 60_000 }, async () => {
    const viewer = await connect(url, {});
    const room = `${user.uuid}.ovation.${user.id}.chat`;
    expect(await join(viewer, room)).toEqual({ joined: room });
    const message = nextEvent(viewer, "message");
    const { socket, ready } = await openConsole(url, { token });
    expect(ready).toEqual({ channel: "streamer", as: "streamer", badges: [] });
    const answer = new Promise<ConsoleOutput>((resolve) => socket.once("say", resolve));
    // The first-run demo command is the reference's !hug template, run in the template sandbox.
    expect(await say(socket, "!hug Bob")).toMatchObject({ accepted: true });
    expect(await answer).toEqual({ text: "streamer sends a hug to Bob <3", send_as: "reply", reply_to: expect.any(String) });
    const event: ChatEvent = await message;
    expect(event).toMatchObject({ platform: "ovation", message: "!hug Bob", channel: { id: String(user.id), platform_id: String(user.id) } });
    expect(event.user.badges.map((b) => b.type)).toEqual(["broadcaster"]);
    socket.close();
    viewer.close();
  });

  it("gives templates the user() and channel() lookups of the plugin serving the chat's platform", { timeout: 60_000 }, async () => {
    const headers = { authorization: `Bearer ${token}` };
    const response = "{% set u = user(args[1]) %}{% if u %}{{ u.name }}: {{ u.view_count }} views, playing {{ channel(u.id).game }}{% else %}who?{% endif %}";
    const created = await app.inject({ method: "POST", url: "/v1/bots/@me/commands", headers, payload: { command: "who", response } });
    expect(created.statusCode).toBe(201);
    const onKick = await app.inject({ method: "POST", url: "/v1/bots/@me/commands/test", headers, payload: { message: "!who kai", event: { platform: "kick" } } });
    expect(onKick.json()).toMatchObject({ matched: "who", text: "Kai: 1234 views, playing Celeste", error: null });
    const unknown = await app.inject({ method: "POST", url: "/v1/bots/@me/commands/test", headers, payload: { message: "!who nobody", event: { platform: "kick" } } });
    expect(unknown.json()).toMatchObject({ text: "who?" });
    // No plugin offers lookups for the console platform: user() is null there.
    const onConsole = await app.inject({ method: "POST", url: "/v1/bots/@me/commands/test", headers, payload: { message: "!who kai" } });
    expect(onConsole.json()).toMatchObject({ text: "who?" });
  });

  it("speaks as another viewer with badges", async () => {
    const viewer = await connect(url, {});
    await join(viewer, `${user.uuid}.ovation.${user.id}.chat`);
    const message = nextEvent(viewer, "message");
    const { socket, ready } = await openConsole(url, { token, as: "Alice", badges: ["moderator"] });
    expect(ready).toEqual({ channel: "streamer", as: "Alice", badges: ["moderator"] });
    await say(socket, "hi there @streamer");
    const event: ChatEvent = await message;
    expect(event.user).toMatchObject({ username: "Alice", platform_id: "console-alice", badges: [{ type: "moderator" }] });
    expect(event.fragments.map((f) => f.type)).toEqual(["text", "mention"]);
    socket.close();
    viewer.close();
  });

  it("refuses bad handshakes with the reason", async () => {
    const refused = (auth: Record<string, unknown>) =>
      new Promise<string>((resolve) => consoleSocket(url, auth).once("connect_error", (err: Error) => resolve(err.message)));
    expect(await refused({ token: "nope" })).toContain("OVATION_ERR_REALTIME_UNAUTHENTICATED");
    expect(await refused({})).toContain("auth.token: a bearer token is required");
    expect(await refused({ token, badges: ["king"] })).toContain("auth.badges: each must be one of moderator, vip, subscriber, broadcaster");
    expect(await refused({ token, as: "no spaces" })).toContain("auth.as: must be 1-25 letters");
    const { token: noChat } = app.ovation.repos.tokens.create({ user_id: user.id, name: "alerts only", scopes: ["alerts:manage"] });
    expect(await refused({ token: noChat })).toContain("OVATION_ERR_AUTH_MISSING_SCOPE");
  });

  it("refuses an empty or oversized line", async () => {
    const { socket } = await openConsole(url, { token });
    expect(await say(socket, "   ")).toEqual({ accepted: false, message: expect.stringContaining("line: must not be blank") });
    expect(await say(socket, "x".repeat(501))).toMatchObject({ accepted: false });
    socket.close();
  });

  it("routes plugin notifications to the alert log and rooms, once, and stream state to the runtime", async () => {
    const context = probe.plugin?.context;
    if (!context) throw new Error("probe not connected");
    const own = await connect(url, { token });
    await join(own, `${user.uuid}.ovation.${user.id}`);
    const received: NotifySub[] = [];
    own.on("notifysub", (n) => void received.push(n));
    expect(context.emitNotification(notification("kick-1", "follow", { name: "Zed" })).accepted).toBe(true);
    expect(context.emitNotification(notification("kick-1", "follow", { name: "Zed" })).accepted).toBe(false);
    expect(app.ovation.commands.runtime.isLive(String(user.id))).toBe(false);
    context.emitNotification(notification("kick-2", "stream.online", []));
    await waitFor(() => received.length >= 2, 10_000, "two notifysub events");
    expect(received.map((n) => [n.subscription.type, n.notification.id, n.event])).toEqual([
      ["follow", "kick-1", { name: "Zed" }],
      ["stream.online", "kick-2", []],
    ]);
    expect(app.ovation.commands.runtime.isLive(String(user.id))).toBe(true);
    own.close();
  });

  it("refuses a plugin name that is neither built in nor an installed package, saying where it looked", async () => {
    const other = tempDataDir();
    try {
      await expect(
        buildApp({ config: testConfig(other.dir), logger: pino({ level: "silent" }), platforms: { env: { OVATION_PLUGINS: "console,myspace" }, cwd: other.dir } }),
      ).rejects.toThrow(`OVATION_PLUGINS: myspace is not a built-in plugin (${Object.keys(BUILT_IN_PLUGINS).join(", ")}) and no package of that name is installed in ${other.dir} or ${other.dir}`);
    } finally {
      other.remove();
    }
  });
});
