import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeKick, KickWebhookSender, webhookEvent } from "@ovation/plugin-kick/testing";
import type { WebhookFixture } from "@ovation/plugin-kick/testing";
import { FakeGoogle, chatMessage } from "@ovation/plugin-youtube/testing";
import { FakeTikTokLogin, FakeWebcast, tiktokFixtures, tiktokMessage } from "@ovation/plugin-tiktok/testing";
import { TWITCH_BROADCASTER_SCOPES } from "@ovation/plugin-twitch";
import { FakeEventSubServer, FakeHelix, FakeIrcServer, eventSubFixture, privmsgLine, twitchServerEnv } from "@ovation/plugin-twitch/testing";
// The server's own helpers and settings, shared rather than copied.
import { DEMO_COMMAND } from "../../../server/src/first-run.js";
import { connect as connectSocket, join, waitFor } from "../../../server/src/__tests__/socket-helpers.js";
import type { ClientSocket } from "../../../server/src/__tests__/socket-helpers.js";
import { obtainEat } from "../../../server/src/identity/__tests__/eat-helper.js";
import { api } from "../../../server/src/identity/__tests__/oauth-helpers.js";
import { defaultPlatformSettings } from "../../../server/src/identity/platforms/settings.js";
import { buildAssets, startDashboard } from "./harness.js";
import type { DashboardHarness } from "./harness.js";

const PASSWORD = "correct horse battery staple";

/**
 * Issue 24's walk through the dashboard, in real Chromium against the platform fakes, with the
 * Twitch, Kick and YouTube plugins running (no restart): three streamers sign in, each connects a
 * different Twitch, Kick and YouTube account on the Connections page, each channel reaches
 * "serving"; one switches the Kick bot off; one disconnects Twitch through the page (with its
 * confirmation) and the bot leaves that channel only. On every platform each streamer's `!hug`
 * is answered in their own channel only and (Twitch, Kick) each follow plays in their own alerts
 * browser source only; the switched-off and the disconnected channel get no answer; one streamer
 * deletes their account and all their channels are released. The third streamer also connects
 * TikTok (the Login Kit fake) and a follow on that LIVE plays in their source only. YouTube follows
 * are not checked per channel (the fake's subscriber list is shared by its channels).
 */

/** The Kick fixture's webhook event, for another broadcaster. */
function kickEvent(name: string, account: { user_id: number; name: string }, extra: Record<string, unknown> = {}): WebhookFixture {
  const fixture = webhookEvent(name);
  const body = structuredClone(fixture.body);
  body.broadcaster = { ...(body.broadcaster as Record<string, unknown>), user_id: account.user_id, username: account.name, channel_slug: account.name.toLowerCase() };
  return { ...fixture, body: { ...body, ...extra } };
}

/** A YouTube chat `!hug` message. */
function youtubeHug(id: string, target: string): Record<string, unknown> {
  const hug = chatMessage("hug-command");
  hug.id = id;
  const snippet = hug.snippet as Record<string, unknown>;
  snippet.displayMessage = `!hug ${target}`;
  (snippet.textMessageDetails as Record<string, unknown>).messageText = `!hug ${target}`;
  return hug;
}

describe("three streamers connect their own channels from the dashboard (issue 24)", () => {
  let h: DashboardHarness;
  let helix: FakeHelix;
  let chat: FakeIrcServer;
  let eventsub: FakeEventSubServer;
  let kick: FakeKick;
  let google: FakeGoogle;
  let sender: KickWebhookSender;
  let tiktokLogin: FakeTikTokLogin;
  let webcast: FakeWebcast;
  const sockets: ClientSocket[] = [];
  const logins = ["annie", "benny", "cathy"];
  const kickAccounts = [
    { user_id: 123456789, name: "KickStreamer" },
    { user_id: 200000002, name: "SecondStreamer" },
    { user_id: 300000003, name: "ThirdStreamer" },
  ];
  const streamers: { id: number; uuid: string; email: string; token: string }[] = [];

  /** The streamer's alerts browser source (a real socket.io client), joined to `rooms`, recording what it plays. */
  async function browserSource(userId: number, rooms: string[]): Promise<string[]> {
    const source = h.app.ovation.repos.browserSources.findOrCreate(userId, "alerts", null).record;
    const socket = await connectSocket(h.base, { browserSourceToken: source.access_token });
    sockets.push(socket);
    const played: string[] = [];
    socket.on("notifysub", (n) => played.push(`${n.subscription.type} ${n.subscription.condition.platform_id}`));
    for (const room of rooms) {
      const joined = await join(socket, room);
      if (!("joined" in joined)) throw new Error(`browser source could not join ${room}: ${JSON.stringify(joined)}`);
    }
    return played;
  }

  /** The EventSub session whose subscriptions a Twitch broadcaster's token created. */
  function eventSubSessionOf(broadcasterId: string) {
    const call = helix.of("POST", "/eventsub/subscriptions").find((c) => (c.body as { condition: { broadcaster_user_id?: string } }).condition.broadcaster_user_id === broadcasterId);
    const sessionId = (call?.body as { transport: { session_id: string } } | undefined)?.transport.session_id;
    const session = eventsub.sessions.find((s) => s.id === sessionId);
    if (!session) throw new Error(`no EventSub session for ${broadcasterId}`);
    return session;
  }

  /** Sends `!hug <target>` in the i-th streamer's channel on each platform. */
  async function hugEverywhere(i: number, target: string, only: readonly string[] = ["twitch", "kick", "youtube"]): Promise<void> {
    const login = logins[i] ?? "";
    if (only.includes("twitch")) chat.publish(login, privmsgLine(login, String(7001 + i), crypto.randomUUID(), `!hug ${target}`, "carol"));
    if (only.includes("kick")) expect((await sender.send(kickEvent("chat-command", kickAccounts[i]!, { message_id: `hug-${target}`, content: `!hug ${target}` }))).status).toBe(200);
    if (only.includes("youtube")) google.publishTo(google.channels[i]?.id ?? "", youtubeHug(`hug-${target}`, target));
  }

  /** Where the bot answered `!hug <target>`: "<platform> <channel>" for every answer on the fakes. */
  function answersTo(target: string): string[] {
    const text = `sends a hug to ${target} <3`;
    return [
      ...chat.received.filter((l) => l.includes(text)).map((l) => `twitch ${/PRIVMSG #(\w+)/.exec(l)?.[1] ?? "?"}`),
      ...kick.sent.filter((m) => m.content.endsWith(text)).map((m) => `kick ${m.broadcaster_user_id}`),
      ...google.channels.filter((c) => c.inserted.some((m) => m.endsWith(text))).map((c) => `youtube ${c.id}`),
    ].sort();
  }

  const card = (page: Page, platform: string) => page.locator(`li.connection-card[data-platform="${platform}"]`);

  async function connect(page: Page, platform: string, name: string): Promise<void> {
    await card(page, platform).getByRole("button", { name: `Connect ${name}` }).click();
    await page.getByRole("button", { name: `Continue to ${name}` }).click();
    await page.waitForURL(`${h.dashboard}/connections`, { timeout: 30_000 });
    await card(page, platform).locator(".connection-name").waitFor({ timeout: 30_000 });
  }

  beforeAll(async () => {
    buildAssets();
    helix = await FakeHelix.start();
    logins.forEach((login, i) => helix.addUser(login, String(7001 + i)));
    chat = await FakeIrcServer.start(Object.fromEntries(logins.map((login, i) => [login, String(7001 + i)])));
    eventsub = await FakeEventSubServer.start();
    kick = await FakeKick.start();
    sender = new KickWebhookSender();
    kick.publicKeyPem = sender.publicKeyPem;
    for (const account of kickAccounts.slice(1)) kick.addAccount(account.user_id, account.name);
    google = await FakeGoogle.start();
    google.live = true;
    google.addChannel("UCsecond0000000000000000", "SecondTuber", true);
    google.addChannel("UCthird00000000000000000", "ThirdTuber", true);
    // TikTok: the third streamer's account is named as the fake LIVE's room (the plugin follows the linked name).
    tiktokLogin = await FakeTikTokLogin.start();
    tiktokLogin.addAccount("open-id-third", tiktokFixtures.room.uniqueId);
    webcast = await new FakeWebcast().start();
    const webcastEnv = webcast.serverEnv();
    delete webcastEnv.OVATION_TIKTOK_UNIQUE_ID;
    const twitchSettings = defaultPlatformSettings("twitch", { clientId: "fake-client", clientSecret: "fake-secret" }, { authorizeUrl: `${helix.base}/oauth2/authorize`, tokenUrl: `${helix.base}/oauth2/token`, apiUrl: `${helix.base}/helix` });
    const kickSettings = defaultPlatformSettings("kick", { clientId: kick.clientId, clientSecret: kick.clientSecret }, { authorizeUrl: kick.authorizeUrl, tokenUrl: kick.tokenUrl, apiUrl: kick.apiUrl });
    const youtubeSettings = defaultPlatformSettings("youtube", { clientId: google.clientId, clientSecret: google.clientSecret }, { authorizeUrl: `http://127.0.0.1:${google.port}/o/oauth2/v2/auth`, tokenUrl: google.tokenUrl, apiUrl: google.apiUrl });
    const tiktokSettings = defaultPlatformSettings("tiktok", { clientId: tiktokLogin.clientKey, clientSecret: tiktokLogin.clientSecret }, { authorizeUrl: tiktokLogin.authorizeUrl, tokenUrl: tiktokLogin.tokenUrl, apiUrl: tiktokLogin.apiUrl });
    if (twitchSettings === null || kickSettings === null || youtubeSettings === null || tiktokSettings === null) throw new Error("no platform settings");
    expect(twitchSettings.scopes).toEqual(TWITCH_BROADCASTER_SCOPES);
    h = await startDashboard({
      platforms: {
        env: {
          OVATION_PLUGINS: "console,twitch,kick,youtube,tiktok",
          ...twitchServerEnv({ helix, chat, eventsub }),
          ...kick.serverEnv(),
          OVATION_KICK_WEBHOOK_PUBLIC_KEY: sender.publicKeyPem,
          ...google.serverEnv(),
          OVATION_YOUTUBE_DAILY_QUOTA: "9000000",
          ...webcastEnv,
        },
      },
      identity: { platforms: [twitchSettings, kickSettings, youtubeSettings, tiktokSettings] },
    });
    sender.url = `${h.base}/v1/platforms/kick/webhook`;
    streamers.push({ id: h.user.id, uuid: h.app.ovation.repos.users.get(h.user.id)?.uuid ?? "", email: h.user.email, token: h.user.token });
    for (const name of ["second", "third"]) {
      const user = await h.addAccount(name, { password: PASSWORD });
      streamers.push({ id: user.id, uuid: user.uuid, email: user.email, token: h.app.ovation.repos.tokens.create({ user_id: user.id, name: "walk", scopes: ["*"] }).token });
    }
    // Each streamer has the demo `!hug` (what the first run gives the first user), without a cooldown.
    for (const streamer of streamers) {
      h.app.ovation.repos.commands.create(streamer.id, { ...DEMO_COMMAND, global_cooldown: 0, command_aliases: [...DEMO_COMMAND.command_aliases] });
      h.app.ovation.commands.reload(streamer.id);
    }
    // What `ovation start` does once the first user exists: the plugins made on listen start now.
    await h.app.platformPluginsAfterFirstRun();
  }, 300_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await h?.close();
    await chat?.close();
    await eventsub?.close();
    await helix?.close();
    await kick?.close();
    await google?.close();
    await tiktokLogin?.close();
    await webcast?.stop();
  });

  it("each streamer connects their own Twitch, Kick and YouTube channel (one also TikTok) and is served there only (!hug answers, follows in their own browser source); a switched-off or disconnected channel and a deleted account get nothing more", async () => {
    const pages: Page[] = [];
    for (const [i, streamer] of streamers.entries()) {
      const { page } = await h.open();
      pages.push(page);
      await h.signIn(page, "/connections", { email: streamer.email, password: PASSWORD });
      helix.nextUser = logins[i] ?? "";
      await connect(page, "twitch", "Twitch");
      kick.nextAccount = kickAccounts[i]?.user_id ?? null;
      await connect(page, "kick", "Kick");
      google.nextChannel = google.channels[i]?.id ?? null;
      await connect(page, "youtube", "YouTube");
      if (i === 2) await connect(page, "tiktok", "TikTok");
    }
    // Each channel is served without a restart; the page shows it once refreshed.
    for (const [i, page] of pages.entries()) {
      for (const platform of i === 2 ? ["twitch", "kick", "youtube", "tiktok"] : ["twitch", "kick", "youtube"]) {
        await expect
          .poll(
            async () => {
              await page.getByRole("button", { name: "Refresh" }).click();
              return card(page, platform).getAttribute("data-state");
            },
            { timeout: 60_000, interval: 250 },
          )
          .toBe("serving");
      }
      expect(await card(page, "twitch").locator(".connection-name").textContent()).toBe(logins[i]);
      expect(await card(page, "kick").locator(".connection-name").textContent()).toBe(kickAccounts[i]?.name);
      expect(await card(page, "youtube").locator(".connection-name").textContent()).not.toBe("");
    }
    await h.screenshot(pages[0] as Page, "connections-serving.desktop-light");
    expect(chat.received.filter((l) => l.startsWith("JOIN ")).join(",")).toMatch(/#annie.*|#benny|#cathy/);

    // Each streamer's `!hug` is answered in their own channel only, on every platform.
    for (const i of [0, 1, 2]) await hugEverywhere(i, `Fan${i}`);
    const own = (i: number) => [`kick ${kickAccounts[i]?.user_id ?? 0}`, `twitch ${logins[i] ?? ""}`, `youtube ${google.channels[i]?.id ?? ""}`];
    for (const i of [0, 1, 2]) {
      await waitFor(() => answersTo(`Fan${i}`).length >= 3, 60_000, `streamer ${i}'s three answers: ${JSON.stringify(answersTo(`Fan${i}`))}`);
      expect(answersTo(`Fan${i}`)).toEqual(own(i));
    }

    // Each follow plays in its streamer's own alerts browser source only (Twitch: EventSub; Kick: webhook).
    const sources = await Promise.all(streamers.map((s, i) => browserSource(s.id, [`${s.uuid}.twitch.${7001 + i}`, `${s.uuid}.kick.${kickAccounts[i]?.user_id ?? 0}`, `${s.uuid}.ovation.${s.id}`])));
    for (const [i, login] of logins.entries()) {
      const follow = eventSubFixture<{ payload: { subscription: { condition: Record<string, string> }; event: Record<string, string> }; metadata: { message_id: string } }>("channel.follow");
      follow.metadata.message_id = `walk-follow-${i}`;
      follow.payload.subscription.condition = { broadcaster_user_id: String(7001 + i), moderator_user_id: String(7001 + i) };
      Object.assign(follow.payload.event, { broadcaster_user_id: String(7001 + i), broadcaster_user_login: login, broadcaster_user_name: login });
      eventsub.sendRaw(follow, eventSubSessionOf(String(7001 + i)));
      expect((await sender.send(kickEvent("follow", kickAccounts[i]!))).status).toBe(200);
    }
    await waitFor(() => sources.every((played) => played.length >= 2), 30_000, "each follow played");
    await h.app.platformPlugins.idle();
    for (const i of [0, 1, 2]) expect([...(sources[i] ?? [])].sort()).toEqual([`follow ${kickAccounts[i]?.user_id ?? 0}`, `follow ${7001 + i}`]);
    // TikTok (linked by the third streamer only): a follow on the LIVE plays in the third streamer's source only.
    expect(await card(pages[2] as Page, "tiktok").locator(".connection-name").textContent()).toBe(tiktokFixtures.room.uniqueId);
    await webcast.waitForConnections(1);
    webcast.push([tiktokMessage("follow")]);
    await waitFor(() => (sources[2]?.length ?? 0) >= 3, 30_000, "the TikTok follow");
    await h.app.platformPlugins.idle();
    expect(sources[2]?.filter((p) => !p.endsWith(` ${7003}`) && !p.endsWith(` ${kickAccounts[2]?.user_id ?? 0}`))).toEqual([expect.stringMatching(/^follow /)]);
    expect([sources[0]?.length, sources[1]?.length]).toEqual([2, 2]);

    // The second streamer switches the bot off on Kick: the channel is no longer served, the link stays.
    const second = pages[1] as Page;
    await card(second, "kick").getByRole("switch", { name: "Bot and alerts on this channel" }).uncheck();
    await expect
      .poll(
        async () => {
          await second.getByRole("button", { name: "Refresh" }).click();
          return card(second, "kick").getAttribute("data-state");
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe("off");
    expect(h.app.ovation.repos.connections.listForUser(streamers[1]?.id ?? 0).find((c) => c.platform === "kick")?.bot_enabled).toBe(false);

    // The third streamer disconnects Twitch (asked first): the bot parts that channel only.
    const third = pages[2] as Page;
    await card(third, "twitch").getByRole("button", { name: "Disconnect Twitch" }).click();
    const dialog = third.getByRole("dialog", { name: "Disconnect Twitch?" });
    await dialog.waitFor({ timeout: 30_000 });
    await h.screenshot(third, "connections-disconnect.desktop-light");
    await dialog.getByRole("button", { name: "Disconnect" }).click();
    await card(third, "twitch").getByText("Not connected", { exact: true }).waitFor({ timeout: 30_000 });
    await chat.waitFor((l) => l === "PART #cathy", 30_000);
    expect(chat.received).not.toContain("PART #annie");
    expect(chat.received).not.toContain("PART #benny");
    const left = (await (await fetch(`${h.base}/api/users/@me/connections`, { headers: { authorization: `Bearer ${streamers[2]?.token ?? ""}` } })).json()) as { platform: string }[];
    expect(left.map((c) => c.platform).sort()).toEqual(["kick", "tiktok", "youtube"]);

    // The disconnected Twitch channel and the switched-off Kick channel get no answer; the rest still do.
    await waitFor(() => !h.app.platformPlugins.channelStatus("twitch").some((c) => c.platform_user_id === "7003"), 30_000, "cathy's Twitch released");
    for (const i of [0, 1, 2]) await hugEverywhere(i, `Late${i}`);
    await waitFor(() => answersTo("Late0").length >= 3 && answersTo("Late1").length >= 2 && answersTo("Late2").length >= 2, 60_000, `late answers: ${JSON.stringify([0, 1, 2].map((i) => answersTo(`Late${i}`)))}`);
    await h.app.platformPlugins.idle();
    expect(answersTo("Late0")).toEqual(own(0));
    expect(answersTo("Late1")).toEqual(own(1).filter((a) => !a.startsWith("kick")));
    expect(answersTo("Late2")).toEqual(own(2).filter((a) => !a.startsWith("twitch")));

    // The first streamer deletes their account (with an EAT, as the API asks): all their channels are released.
    const first = streamers[0]!;
    const eat = await obtainEat(h, first.token, first.email);
    expect((await api(h.base, "/api/users/@me", first.token, { method: "DELETE", eat })).status).toBe(204);
    await chat.waitFor((l) => l === "PART #annie", 30_000);
    const servedOf = () => ["twitch", "kick", "youtube"].flatMap((p) => h.app.platformPlugins.channelStatus(p).filter((c) => c.platform_user_id === (p === "twitch" ? "7001" : p === "kick" ? String(kickAccounts[0]?.user_id) : google.channels[0]?.id)));
    await waitFor(() => servedOf().length === 0, 30_000, "the deleted account's channels released");
    expect(h.app.ovation.repos.connections.listForUser(first.id)).toEqual([]);
    await hugEverywhere(0, "Gone", ["kick", "youtube"]);
    await hugEverywhere(1, "Still");
    await waitFor(() => answersTo("Still").length >= 2, 60_000, "the second streamer still answered");
    await h.app.platformPlugins.idle();
    expect(answersTo("Gone")).toEqual([]);
    expect(answersTo("Still")).toEqual(own(1).filter((a) => !a.startsWith("kick")));
  }, 300_000);
});
