import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeKick, KickWebhookSender, webhookEvent } from "@ovation/plugin-kick/testing";
import type { WebhookFixture } from "@ovation/plugin-kick/testing";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { api } from "../../identity/__tests__/oauth-helpers.js";
import { defaultPlatformSettings } from "../../identity/platforms/settings.js";
import { loadPlugins } from "../plugin-loader.js";
import { startChannelsServer } from "./channels-harness.js";
import type { ChannelsServer, Streamer } from "./channels-harness.js";

const load = (env: Record<string, string>) => loadPlugins({ env, dataDir: "/nonexistent-ovation", cwd: "/nonexistent-ovation" });

describe("kick settings from the environment", () => {
  it("needs the Kick app and names bad variables", async () => {
    await expect(load({ OVATION_PLUGINS: "kick" })).rejects.toThrow("OVATION_KICK_CLIENT_ID: is required when the kick plugin is enabled");
    const base = { OVATION_PLUGINS: "kick", OVATION_KICK_CLIENT_ID: "a", OVATION_KICK_CLIENT_SECRET: "b" };
    await expect(load({ ...base, OVATION_KICK_MODE: "irc" })).rejects.toThrow("OVATION_KICK_MODE: must be webhook or pusher");
    expect((await load({ ...base, OVATION_KICK_SUBSCRIBE: "false", OVATION_KICK_WEBHOOK_PUBLIC_KEY: "a\\nb" }))[0]?.settings).toEqual({
      clientId: "a",
      clientSecret: "b",
      subscribe: false,
      webhookPublicKey: "a\nb",
    });
    await expect(load({ ...base, OVATION_KICK_REFRESH_TOKEN: "r" })).rejects.toThrow("OVATION_KICK_REFRESH_TOKEN: is no longer read: the streamer links Kick under Connections");
  });
});

/** The fixture's event, for another broadcaster. */
function forBroadcaster(name: string, account: { user_id: number; name: string }, extra: Record<string, unknown> = {}): WebhookFixture {
  const fixture = webhookEvent(name);
  const body = structuredClone(fixture.body);
  body.broadcaster = { ...(body.broadcaster as Record<string, unknown>), user_id: account.user_id, username: account.name, channel_slug: account.name.toLowerCase() };
  return { ...fixture, body: { ...body, ...extra } };
}

describe("Kick served per streamer: three streamers link their own Kick channel, no restart", () => {
  let kick: FakeKick;
  let sender: KickWebhookSender;
  let server: ChannelsServer;
  const streamers: Streamer[] = [];
  const links: { id: number; platform_user_id: string }[] = [];

  beforeAll(async () => {
    kick = await FakeKick.start();
    kick.addAccount(200000002, "SecondStreamer");
    kick.addAccount(300000003, "ThirdStreamer");
    sender = new KickWebhookSender();
    kick.publicKeyPem = sender.publicKeyPem;
    const settings = defaultPlatformSettings("kick", { clientId: kick.clientId, clientSecret: kick.clientSecret });
    if (settings === null) throw new Error("no kick settings");
    server = await startChannelsServer(
      { OVATION_PLUGINS: "console,kick", ...kick.serverEnv(), OVATION_KICK_WEBHOOK_PUBLIC_KEY: sender.publicKeyPem },
      [{ ...settings, authorizeUrl: kick.authorizeUrl, tokenUrl: kick.tokenUrl, userInfoUrl: `${kick.apiUrl}/users` }],
    );
    sender.url = `${server.base}/v1/platforms/kick/webhook`;
  });
  afterAll(async () => {
    await server.close();
    await kick.close();
  });

  it("serves each linked channel with its own tokens, answers each !hug in its own channel and plays each follow in its own browser source", { timeout: 90_000 }, async () => {
    // Before any link the plugin runs, serving nothing, and says so.
    await waitFor(() => server.app.platformPlugins.health().some((h) => h.name === "kick" && h.status === "connected"), 20_000, "kick up");
    expect(server.app.platformPlugins.health().find((h) => h.name === "kick")?.detail).toBe("no channel linked yet");
    for (const [i, name] of ["Ann", "Ben", "Cat"].entries()) {
      const streamer = server.streamer(name);
      streamers.push(streamer);
      kick.nextAccount = kick.accounts[i]!.user_id;
      links.push(await server.link(streamer, "kick"));
    }
    await waitFor(() => server.app.platformPlugins.channelStatus("kick").filter((c) => c.state === "serving").length === 3, 30_000, "three kick channels serving");
    expect(new Set(kick.subscriptions.map((s) => s.broadcaster_user_id))).toEqual(new Set(kick.accounts.map((a) => a.user_id)));

    // The connection view shows each streamer their own channel serving.
    const view = await api(server.base, "/api/users/@me/connections", streamers[1]!.token);
    expect(view.body).toMatchObject([{ platform: "kick", username: "SecondStreamer", bot_enabled: true, status: { state: "serving", action: null } }]);

    const sources = await Promise.all(streamers.map((s, i) => server.browserSource(s, `${s.uuid}.kick.${kick.accounts[i]!.user_id}`)));
    for (const [i, account] of kick.accounts.entries()) {
      const hug = await sender.send(forBroadcaster("chat-command", account, { message_id: `hug-${i}`, content: `!hug Fan${i}` }));
      expect(hug.status).toBe(200);
      const follow = await sender.send(forBroadcaster("follow", account));
      expect(follow.status).toBe(200);
    }
    await waitFor(() => kick.sent.length >= 3, 20_000, "three !hug answers");
    expect(kick.sent.slice(0, 3).map((m) => [m.broadcaster_user_id, m.content]).sort()).toEqual(
      kick.accounts.map((a, i) => [a.user_id, `Hugger sends a hug to Fan${i} <3`]).sort(),
    );
    await waitFor(() => sources.every((s) => s.played.length >= 1), 20_000, "each follow played");
    for (const [i, source] of sources.entries()) expect(source.played).toEqual([`follow ${kick.accounts[i]!.user_id}`]);

    // A refresh after the access token expired is written back to the link's stored tokens.
    const before = server.app.ovation.repos.connections.tokensOf(links[0]!.id)?.access_token;
    kick.expireAccessTokens();
    const plugin = server.app.platformPlugins.get("kick");
    const channel = plugin.channels().find((c) => c.platform_id === String(kick.accounts[0]!.user_id));
    await plugin.send({ channel: channel!, text: "after the token expired", send_as: "say", reply_to: null });
    expect(kick.sent.at(-1)).toMatchObject({ broadcaster_user_id: kick.accounts[0]!.user_id, content: "after the token expired" });
    await waitFor(() => server.app.ovation.repos.connections.tokensOf(links[0]!.id)?.access_token !== before, 20_000, "stored refreshed token");
    expect(server.app.ovation.repos.connections.tokensOf(links[0]!.id)?.refresh_token).toBe(kick.accounts[0]!.refreshToken);

    // GET /v1/plugins: every plugin's channel counts, and the caller's own channel only.
    const listing = await api(server.base, "/v1/plugins", streamers[1]!.token);
    expect((listing.body.data as { id: string }[]).find((p) => p.id === "kick")).toMatchObject({
      channel_counts: { serving: 3 },
      channels: [{ connection_id: links[1]!.id, username: "SecondStreamer", state: "serving" }],
    });
  });

  it("refuses forged, stale and replayed webhooks, and remembers a delivery in the store (a replay after a restart is refused)", { timeout: 30_000 }, async () => {
    const [forged] = await sender.attack("forged-signature");
    expect(forged?.status).toBe(403);
    const [stale] = await sender.attack("stale-timestamp");
    expect(stale?.status).toBe(403);
    const delivery = sender.build(forBroadcaster("chat-message", kick.accounts[0]!));
    expect((await sender.post(delivery)).status).toBe(200);
    const again = await sender.post(delivery);
    expect(JSON.parse(again.answer)).toMatchObject({ reason: "replay" });
    // The claim lives in the store document, not in the plugin's memory.
    expect(JSON.stringify(server.app.ovation.repos.store.data.extensions["plugin_claims"] ?? {})).toMatch(/kick:[0-9a-f]{64}/);
  });

  it("a switched-off or unlinked channel gets nothing more; an account deletion releases its channel", { timeout: 60_000 }, async () => {
    const [ann, ben, cat] = streamers as [Streamer, Streamer, Streamer];
    const off = await api(server.base, `/api/users/@me/connections/${links[0]!.id}`, ann.token, { method: "PATCH", body: { bot_enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ bot_enabled: false, status: { state: "off" } });
    // Another streamer's connection is not found.
    expect((await api(server.base, `/api/users/@me/connections/${links[0]!.id}`, ben.token, { method: "DELETE" })).status).toBe(404);
    expect((await api(server.base, `/api/users/@me/connections/${links[0]!.id}`, ann.token, { method: "PATCH", body: { bot_enabled: "yes" } })).status).toBe(422);
    const unlinked = await api(server.base, `/api/users/@me/connections/${links[2]!.id}`, cat.token, { method: "DELETE" });
    expect(unlinked.status).toBe(204);
    expect(server.app.ovation.repos.connections.tokensOf(links[2]!.id)).toBeNull();
    await waitFor(() => server.app.platformPlugins.channelStatus("kick").length === 1, 20_000, "two channels released");

    const sent = kick.sent.length;
    for (const [i, account] of [kick.accounts[0]!, kick.accounts[2]!].entries()) {
      expect((await sender.send(forBroadcaster("chat-command", account, { message_id: `late-${i}` }))).status).toBe(200);
    }
    expect((await sender.send(forBroadcaster("chat-command", kick.accounts[1]!, { message_id: "ben-late", content: "!hug Late" }))).status).toBe(200);
    await waitFor(() => kick.sent.length > sent, 20_000, "Ben's answer");
    await server.app.platformPlugins.idle();
    expect(kick.sent.slice(sent).map((m) => m.broadcaster_user_id)).toEqual([kick.accounts[1]!.user_id]);
    expect(server.logs.filter((l) => l.msg?.includes("does not serve")).length).toBeGreaterThanOrEqual(2);

    // Ben's link is revoked on Kick: his channel shows that he must reconnect.
    kick.revoke(kick.accounts[1]!.user_id);
    await sender.send(forBroadcaster("chat-command", kick.accounts[1]!, { message_id: "ben-revoked", content: "!hug Again" }));
    await waitFor(() => server.app.platformPlugins.channelStatus("kick").find((c) => c.connection_id === links[1]!.id)?.state === "needs_reconnect", 20_000, "Ben needs to reconnect");
    expect((await api(server.base, "/api/users/@me/connections", ben.token)).body).toMatchObject([{ status: { state: "needs_reconnect", action: "reconnect", message: "Reconnect Kick: the link was revoked or has expired" } }]);

    // Ben deletes his account: his channel is released at once.
    expect((await api(server.base, "/api/users/@me", ben.token, { method: "DELETE" })).status).toBe(204);
    await waitFor(() => server.app.platformPlugins.channelStatus("kick").length === 0, 20_000, "Ben's channel released");
  });
});
