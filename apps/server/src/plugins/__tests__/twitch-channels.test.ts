import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { bootstrap } from "../../first-run.js";
import { tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { listen, waitFor } from "../../__tests__/socket-helpers.js";
import { MiniTwitchChat } from "./mini-twitch-chat.js";
import { eventSubFixture, privmsgLine } from "@ovation/plugin-twitch/testing";
import type { FakeEventSubServer, FakeHelix, FakeIrcServer } from "@ovation/plugin-twitch/testing";
import { api } from "../../identity/__tests__/oauth-helpers.js";
import { startTwitchChannels } from "./channels-harness.js";
import type { ChannelsServer, Streamer, TwitchChannels } from "./channels-harness.js";
import { loadPlugins } from "../plugin-loader.js";

const load = (env: Record<string, string>) => loadPlugins({ env, dataDir: "/nonexistent-ovation", cwd: "/nonexistent-ovation" });

describe("plugin settings from the environment", () => {
  it("defaults to the console and names bad variables", async () => {
    expect((await load({})).map((p) => [p.entry, p.origin])).toEqual([["console", "built-in"]]);
    expect(await load({ OVATION_PLUGINS: "none" })).toEqual([]);
    expect((await load({ OVATION_PLUGINS: "twitch" }))[0]?.settings).toEqual({});
    await expect(load({ OVATION_PLUGINS: "twitch", OVATION_TWITCH_CHANNELS: "ok,not a login" })).rejects.toThrow(
      "OVATION_TWITCH_CHANNELS.1: entries must be `login` or `login:<user id>`",
    );
    await expect(load({ OVATION_PLUGINS: "twitch", OVATION_TWITCH_CHANNELS: "a", OVATION_TWITCH_TOKEN: "t" })).rejects.toThrow(
      "OVATION_TWITCH_USERNAME: set both username and token",
    );
    const [twitch] = await load({ OVATION_PLUGINS: "twitch, console", OVATION_TWITCH_CHANNELS: "Dallas:3,other" });
    expect(twitch?.settings).toMatchObject({ channels: [
      { login: "dallas", userId: 3 },
      { login: "other", userId: null },
    ] });
  });
});

describe("a channel the operator configures in OVATION_TWITCH_CHANNELS (kept beside the linked ones)", () => {
  const data = tempDataDir();
  let irc: MiniTwitchChat;
  let app: OvationApp;

  beforeAll(async () => {
    irc = await MiniTwitchChat.start("dallas", "12345678");
    app = await buildApp({
      config: testConfig(data.dir),
      logger: pino({ level: "silent" }),
      platforms: {
        env: {
          OVATION_PLUGINS: "console,twitch",
          OVATION_TWITCH_CHANNELS: "dallas",
          OVATION_TWITCH_USERNAME: "ovationbot",
          OVATION_TWITCH_TOKEN: "oauth:abc",
          OVATION_TWITCH_IRC_URL: `ws://127.0.0.1:${irc.port}`,
        },
      },
    });
    const result = bootstrap(app.ovation.repos);
    if (result.kind !== "seeded") throw new Error("a fresh data directory is seeded");
    app.ovation.commands.reload(result.user.id);
    await listen(app);
  });
  afterAll(async () => {
    await app.close();
    await irc.close();
    data.remove();
  });

  it("joins the channel for the first user once listening, and answers its chat as the bot", { timeout: 60_000 }, async () => {
    await waitFor(() => app.platformPlugins.health().some((h) => h.name === "twitch" && h.status === "connected"), 20_000, "twitch connected");
    expect(irc.received).toContain("PASS oauth:abc");
    irc.publish(
      "@badges=;color=;display-name=Carol;emotes=;id=11111111-2222-4333-8444-555555555555;room-id=12345678;tmi-sent-ts=1700000000000;user-id=77 :carol!carol@carol.tmi.twitch.tv PRIVMSG #dallas :!hug Bob",
    );
    const line = await irc.waitFor((l) => l.includes("sends a hug"), 30_000);
    expect(line).toBe("@reply-parent-msg-id=11111111-2222-4333-8444-555555555555 PRIVMSG #dallas :Carol sends a hug to Bob <3");
  });
});

describe("Twitch served per streamer: three streamers link their own channel, the operator's bot answers in each", () => {
  let helix: FakeHelix;
  let chat: FakeIrcServer;
  let eventsub: FakeEventSubServer;
  let server: ChannelsServer;
  let twitch: TwitchChannels;
  const logins = ["annie", "benny", "cathy"];
  const streamers: Streamer[] = [];
  const links: { id: number; platform_user_id: string }[] = [];

  beforeAll(async () => {
    twitch = await startTwitchChannels(Object.fromEntries(logins.map((login, i) => [login, String(7001 + i)])));
    ({ helix, chat, eventsub, server } = twitch);
  });
  afterAll(async () => {
    await twitch?.close();
  });

  /** The EventSub session whose subscriptions a broadcaster's token created. */
  const sessionOf = (broadcasterId: string) => {
    const call = helix.of("POST", "/eventsub/subscriptions").find((c) => (c.body as { condition: { broadcaster_user_id?: string } }).condition.broadcaster_user_id === broadcasterId);
    const sessionId = (call?.body as { transport: { session_id: string } } | undefined)?.transport.session_id;
    const session = eventsub.sessions.find((s) => s.id === sessionId);
    if (!session) throw new Error(`no EventSub session for ${broadcasterId}`);
    return { session, token: call?.token };
  };

  it("joins each linked channel, creates each channel's subscriptions with its broadcaster's token, answers each !hug in its own chat, plays each follow in its own browser source", { timeout: 90_000 }, async () => {
    await waitFor(() => server.app.platformPlugins.health().some((h) => h.name === "twitch" && h.status === "connected"), 20_000, "twitch up");
    for (const [i, name] of ["Annie", "Benny", "Cathy"].entries()) {
      const streamer = server.streamer(name);
      streamers.push(streamer);
      helix.nextUser = logins[i]!;
      links.push(await server.link(streamer, "twitch"));
    }
    await waitFor(() => server.app.platformPlugins.channelStatus("twitch").filter((c) => c.state === "serving").length === 3, 30_000, "three twitch channels serving");
    expect(chat.received.filter((l) => l.startsWith("JOIN ")).join(",")).toMatch(/#annie/);
    // Each channel's EventSub session subscribes with its own token (the subscriptions follow the welcome).
    const subscribed = (id: string) => helix.of("POST", "/eventsub/subscriptions").filter((c) => (c.body as { condition: { broadcaster_user_id?: string } }).condition.broadcaster_user_id === id).length;
    await waitFor(() => [7001, 7002, 7003].every((id) => subscribed(String(id)) >= 15), 20_000, "every channel's subscriptions");
    for (const [i, login] of logins.entries()) {
      const { token } = sessionOf(String(7001 + i));
      // Broadcaster-only types (subscriptions) were created with that broadcaster's own token, not the bot's.
      expect(token).toMatch(new RegExp(`^user-token-${7001 + i}-`));
      expect(helix.validations).toContain(token);
      void login;
    }
    const sources = await Promise.all(streamers.map((s, i) => server.browserSource(s, `${s.uuid}.twitch.${7001 + i}`)));
    for (const [i, login] of logins.entries()) {
      chat.publish(login, privmsgLine(login, String(7001 + i), `aaaaaaaa-0000-4000-8000-00000000000${i}`, `!hug Fan${i}`, "carol"));
      const follow = eventSubFixture<{ payload: { subscription: { condition: Record<string, string> }; event: Record<string, string> }; metadata: { message_id: string } }>("channel.follow");
      follow.metadata.message_id = `follow-${i}`;
      follow.payload.subscription.condition = { broadcaster_user_id: String(7001 + i), moderator_user_id: String(7001 + i) };
      Object.assign(follow.payload.event, { broadcaster_user_id: String(7001 + i), broadcaster_user_login: login, broadcaster_user_name: login });
      eventsub.sendRaw(follow, sessionOf(String(7001 + i)).session);
    }
    for (const [i, login] of logins.entries()) {
      await chat.waitFor((l) => l.includes(`PRIVMSG #${login} :carol sends a hug to Fan${i} <3`), 20_000);
    }
    await waitFor(() => sources.every((s) => s.played.length >= 1), 20_000, "each follow played");
    for (const [i, source] of sources.entries()) expect(source.played).toEqual([`follow ${7001 + i}`]);
  });

  it("a revoked link marks that channel needs reconnecting at the next validation; an unlink parts the chat; account deletion releases the channel", { timeout: 60_000 }, async () => {
    // An access token Twitch no longer accepts is refreshed at validation, and the new one is stored.
    const benny = links[1]!.id;
    const old = server.app.ovation.repos.connections.tokensOf(benny)?.access_token ?? "";
    helix.validTokens.delete(old);
    const plugin = server.app.platformPlugins.get("twitch") as unknown as { validateAll(): Promise<void> };
    await plugin.validateAll();
    await waitFor(() => (server.app.ovation.repos.connections.tokensOf(benny)?.access_token ?? old) !== old, 20_000, "stored refreshed token");
    expect(server.app.platformPlugins.channelStatus("twitch").find((c) => c.connection_id === benny)?.state).toBe("serving");

    // A link without a scope EventSub needs shows which permission to grant.
    const annieToken = server.app.ovation.repos.connections.tokensOf(links[0]!.id)?.access_token ?? "";
    const owner = helix.tokenOwners.get(annieToken);
    if (!owner) throw new Error("annie's token is unknown to the fake");
    owner.scopes = owner.scopes.filter((scope) => scope !== "bits:read");
    await plugin.validateAll();
    expect(server.app.platformPlugins.channelStatus("twitch").find((c) => c.connection_id === links[0]!.id)).toMatchObject({ state: "missing_scope", missing_scopes: ["bits:read"] });
    expect((await api(server.base, "/api/users/@me/connections", streamers[0]!.token)).body).toMatchObject([{ status: { state: "missing_scope", action: "grant_scope", missing_scopes: ["bits:read"] } }]);

    helix.revokeUser("annie");
    // The hourly validation, run now.
    await plugin.validateAll();
    await waitFor(() => server.app.platformPlugins.channelStatus("twitch").find((c) => c.connection_id === links[0]!.id)?.state === "needs_reconnect", 20_000, "annie needs reconnecting");
    const view = await api(server.base, "/api/users/@me/connections", streamers[0]!.token);
    expect(view.body).toMatchObject([{ platform: "twitch", status: { state: "needs_reconnect", action: "reconnect", message: expect.stringContaining("Reconnect Twitch") } }]);

    expect((await api(server.base, `/api/users/@me/connections/${links[2]!.id}`, streamers[2]!.token, { method: "DELETE" })).status).toBe(204);
    await chat.waitFor((l) => l === "PART #cathy", 20_000);
    const sent = chat.received.filter((l) => l.includes("sends a hug")).length;
    chat.publish("cathy", privmsgLine("cathy", "7003", "bbbbbbbb-0000-4000-8000-000000000001", "!hug Nobody", "carol"));
    chat.publish("benny", privmsgLine("benny", "7002", "bbbbbbbb-0000-4000-8000-000000000002", "!hug Late", "carol"));
    await chat.waitFor((l) => l.includes("PRIVMSG #benny :carol sends a hug to Late <3"), 20_000);
    await server.app.platformPlugins.idle();
    expect(chat.received.filter((l) => l.includes("sends a hug")).length).toBe(sent + 1);

    expect((await api(server.base, "/api/users/@me", streamers[1]!.token, { method: "DELETE" })).status).toBe(204);
    await chat.waitFor((l) => l === "PART #benny", 20_000);
    await waitFor(() => server.app.platformPlugins.channelStatus("twitch").length === 1, 20_000, "only annie's channel left");
  });
});
