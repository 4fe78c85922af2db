import path from "node:path";
import type { ConsolePlugin } from "@ovation/plugin-console";
import { FakeKick, KickWebhookSender } from "@ovation/plugin-kick/testing";
import { FakeWebcast, tiktokMessage } from "@ovation/plugin-tiktok/testing";
import { FakeGoogle, chatMessage } from "@ovation/plugin-youtube/testing";
import type { Browser, Page } from "playwright-core";
import { io } from "socket.io-client";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The Twitch plugin keeps its IRC fake beside its own tests (it has no testing entry point).
import { FakeIrcServer } from "@ovation/plugin-twitch/testing";
import { TEST_RESULTS_DIR, buildAssets, launchChromium } from "./chromium.js";
import { linkChannel, startPlatformServer } from "./platform-server.js";
import type { PlatformServer } from "./platform-server.js";

/**
 * The `chat` source end to end: the REAL server with the console, Twitch (fake IRC over WebSocket),
 * YouTube (fake Google), Kick (fake API + signed webhooks) and TikTok (fake Webcast) plugins, one chat source in Debian's
 * Chromium. Lines of every platform land in the one box; a deleted line goes; hostile text stays text.
 */

const TWITCH_LINES = {
  emotes:
    "@badge-info=;badges=moderator/1;color=#1E90FF;display-name=Viewer_1;emotes=25:0-4;id=0f7a3c3b-6c1c-4a2b-9d8e-0c0e6d7b2a11;room-id=12345678;tmi-sent-ts=1643904084800;user-id=5551;user-type=mod :viewer_1!viewer_1@viewer_1.tmi.twitch.tv PRIVMSG #dallas :Kappa hello from twitch",
  cheer:
    "@badge-info=;badges=;bits=100;color=#8A2BE2;display-name=Cheerer;emotes=;id=1a7a3c3b-6c1c-4a2b-9d8e-0c0e6d7b2a12;room-id=12345678;tmi-sent-ts=1643904084900;user-id=5552;user-type= :cheerer!cheerer@cheerer.tmi.twitch.tv PRIVMSG #dallas :Cheer100 great stream",
};

let irc: FakeIrcServer;
let google: FakeGoogle;
let kick: FakeKick;
let sender: KickWebhookSender;
let tiktok: FakeWebcast;
let server: PlatformServer;
let browser: Browser;
let chatToken: string;

beforeAll(async () => {
  buildAssets();
  irc = await FakeIrcServer.start({ dallas: "12345678" });
  google = await FakeGoogle.start();
  google.live = true;
  kick = await FakeKick.start();
  tiktok = await new FakeWebcast().start();
  sender = new KickWebhookSender();
  kick.publicKeyPem = sender.publicKeyPem;
  const { OVATION_TIKTOK_UNIQUE_ID: tiktokUser, ...tiktokEnv } = tiktok.serverEnv();
  server = await startPlatformServer("chatbox", (base) => {
    sender.url = `${base}/v1/platforms/kick/webhook`;
    return {
      OVATION_PLUGINS: "console,twitch,youtube,kick,tiktok",
      OVATION_TWITCH_CHANNELS: "dallas",
      OVATION_TWITCH_IRC_URL: `ws://127.0.0.1:${irc.port}`,
      ...google.serverEnv(),
      ...kick.serverEnv(),
      OVATION_KICK_WEBHOOK_PUBLIC_KEY: sender.publicKeyPem,
      ...tiktokEnv,
    };
  });
  // Each platform serves the channel its streamer connected (here: linked as the link flow stores it).
  const account = kick.accounts[0];
  const channel = google.channels[0];
  if (!account || !channel) throw new Error("the fakes have no account");
  linkChannel(server, { platform: "kick", platform_user_id: String(account.user_id), username: account.name, refreshToken: account.refreshToken });
  linkChannel(server, { platform: "youtube", platform_user_id: channel.id, username: channel.title, refreshToken: channel.refreshToken });
  linkChannel(server, { platform: "tiktok", platform_user_id: "open-id-owner", username: tiktokUser ?? "" });
  const owner = server.app.ovation.repos.users.list()[0];
  if (!owner) throw new Error("no user");
  chatToken = server.app.ovation.repos.tokens.create({ user_id: owner.id, name: "console", scopes: ["chatbot:manage"] }).token;
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await Promise.all([irc?.close(), google?.close(), kick?.close(), tiktok?.stop()]);
});

async function consoleSocket(as: string): Promise<Socket> {
  const socket = io(`${server.base}/console`, { auth: { token: chatToken, as }, transports: ["websocket"], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("ready", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

async function say(socket: Socket, text: string): Promise<string> {
  const answer = (await socket.timeout(5_000).emitWithAck("line", text)) as { accepted: boolean; id?: string; message?: string };
  expect(answer.accepted, answer.message).toBe(true);
  return answer.id ?? "";
}

async function openChat(page: Page): Promise<void> {
  const source = await server.api<{ browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: "chat" });
  expect(source.status).toBeLessThan(300);
  await page.goto(source.body.browser_source_url);
  await page.waitForSelector(`#ovation-root[data-state="connected"]`, { timeout: 15_000 });
}

/** A source of `type` under its own identifier, with `settings` saved before the page opens it. */
async function openSource(page: Page, type: string, identifier: string, settings: Record<string, unknown>): Promise<void> {
  const source = await server.api<{ id: number; browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: type, identifier });
  expect(source.status).toBeLessThan(300);
  const saved = await server.api("PUT", `/v1/browser-source/${source.body.id}/settings`, { settings });
  expect(saved.status).toBe(200);
  await page.goto(source.body.browser_source_url);
  await page.waitForSelector(`#ovation-root[data-state="connected"]`, { timeout: 15_000 });
}

let twitchSerial = 0;

/** A Twitch PRIVMSG as the IRC server sends it, with extra tags (already escaped) before the standard ones. */
function twitchLine(user: string, text: string, extra: { tags?: string; emotes?: string; badges?: string } = {}): string {
  twitchSerial += 1;
  const id = `2b7a3c3b-6c1c-4a2b-9d8e-${String(twitchSerial).padStart(12, "0")}`;
  const login = user.toLowerCase();
  const tags = [extra.tags, `badge-info=;badges=${extra.badges ?? ""};color=#00FF7F;display-name=${user};emotes=${extra.emotes ?? ""};id=${id}`]
    .filter(Boolean)
    .join(";");
  return `@${tags};room-id=12345678;tmi-sent-ts=1643904085000;user-id=${6000 + twitchSerial};user-type= :${login}!${login}@${login}.tmi.twitch.tv PRIVMSG #dallas :${text}`;
}

async function twitchServed(): Promise<void> {
  await expect.poll(() => irc.connections.size, { timeout: 15_000 }).toBeGreaterThan(0);
  await expect.poll(() => server.app.platformPlugins.get("twitch").channels()[0]?.platform_id ?? "", { timeout: 15_000 }).toBe("12345678");
}

/** A 1x1 PNG: the emote CDNs answered from the test, since the test machine has no network. */
const PIXEL = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

async function serveEmoteCdns(page: Page): Promise<string[]> {
  const requested: string[] = [];
  for (const host of ["https://static-cdn.jtvnw.net/**", "https://d3aqoihi2n8ty8.cloudfront.net/**", "https://files.kick.com/**"]) {
    await page.route(host, (route) => {
      requested.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "image/png", body: PIXEL });
    });
  }
  return requested;
}

const line = (page: Page, platform: string, text: string) => page.locator(`.ovation-chat-line[data-platform="${platform}"]`, { hasText: text });

describe("the chat browser source", () => {
  it("shows console, Twitch, YouTube, Kick and TikTok lines in one box; a deleted line goes; hostile text stays text", { timeout: 90_000 }, async () => {
    const served = (name: string) => server.app.platformPlugins.channelStatus(name)[0];
    await expect.poll(() => served("youtube")?.detail ?? "", { timeout: 15_000 }).toMatch(/^live/);
    await expect.poll(() => served("kick")?.state ?? "", { timeout: 15_000 }).toBe("serving");
    await expect.poll(() => served("tiktok")?.detail ?? "", { timeout: 15_000 }).toMatch(/^live/);
    await expect.poll(() => irc.connections.size, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => server.app.platformPlugins.get("twitch").channels()[0]?.platform_id ?? "", { timeout: 15_000 }).toBe("12345678");

    const page = await browser.newPage({ viewport: { width: 640, height: 720 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const requested = await serveEmoteCdns(page);
    await openChat(page);
    await page.evaluate(`document.body.style.background = "#1f2430"`);

    const alice = await consoleSocket("Alice");
    try {
      const consoleId = await say(alice, "hello from the console");
      await line(page, "ovation", "hello from the console").waitFor({ timeout: 1_000 });

      irc.publish("dallas", TWITCH_LINES.emotes);
      const twitch = line(page, "twitch", "hello from twitch");
      await twitch.waitFor({ timeout: 1_000 });
      expect(await twitch.locator("img.ovation-emote").getAttribute("src")).toBe("https://static-cdn.jtvnw.net/emoticons/v2/25/default/dark/2.0");
      expect(await twitch.locator(".ovation-chat-name").textContent()).toBe("Viewer_1");
      expect(await twitch.locator('[data-badge="moderator"]').count()).toBe(1);
      irc.publish("dallas", TWITCH_LINES.cheer);
      await line(page, "twitch", "great stream").locator("img.ovation-cheermote").waitFor({ timeout: 1_000 });

      google.publish(chatMessage("text-emoji-mention"));
      const youtube = line(page, "youtube", "hi");
      // The YouTube plugin reads chat by polling, at most once a second (its `minChatPollMs`): a line
      // published just after a poll arrives a second later, so a 1 s wait failed now and then.
      await youtube.waitFor({ timeout: 5_000 });
      expect(await youtube.locator(".ovation-emote-text").first().textContent()).toBe(":hand-pink-waving:");

      expect((await sender.send("chat-message")).status).toBe(200);
      const kickLine = line(page, "kick", "Hello");
      await kickLine.waitFor({ timeout: 1_000 });
      expect(await kickLine.locator("img.ovation-emote").getAttribute("src")).toBe("https://files.kick.com/emotes/37226/fullsize");

      await tiktok.waitForConnections();
      tiktok.push([tiktokMessage("comment")]);
      await line(page, "tiktok", "!hello").waitFor({ timeout: 1_000 });

      const hostile = "<img src=x onerror=window.__pwned=1> <b>bold</b>";
      await say(alice, hostile);
      const xss = line(page, "ovation", "onerror");
      await xss.waitFor({ timeout: 1_000 });
      expect(await xss.locator(".ovation-chat-message").textContent()).toBe(hostile);
      expect(await page.locator('.ovation-chat img[src="x"], .ovation-chat b').count()).toBe(0);
      expect(await page.evaluate("window.__pwned")).toBeUndefined();

      expect(requested).toContain("https://d3aqoihi2n8ty8.cloudfront.net/actions/cheer/dark/animated/100/2.gif");
      await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "chat-source.png") });

      const consolePlugin = server.app.platformPlugins.get("console") as ConsolePlugin;
      const channel = consolePlugin.channels()[0];
      if (!channel) throw new Error("the console has no channel");
      await consolePlugin.deleteMessage(channel, consoleId);
      await line(page, "ovation", "hello from the console").waitFor({ state: "detached", timeout: 1_000 });
      // The other platforms' lines stay.
      expect(await page.locator(".ovation-chat-line").count()).toBe(6);
    } finally {
      alice.close();
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it("applies saved options at once: commands and chosen users hidden", { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
    await openChat(page);
    const list = await server.api<{ data: Array<{ id: number; browser_source_type: string }> }>("GET", "/v1/browser-source");
    const chat = list.body.data.find((s) => s.browser_source_type === "chat");
    const bad = await server.api<{ errors: Record<string, string[]> }>("PUT", `/v1/browser-source/${chat?.id}/settings`, { settings: { theme: "neon", max_lines: 0 } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["settings.max_lines", "settings.theme"]);
    const saved = await server.api("PUT", `/v1/browser-source/${chat?.id}/settings`, { settings: { hide_commands: true, hidden_users: ["Mallory"], theme: "light" } });
    expect(saved.status).toBe(200);
    await page.waitForSelector('.ovation-chat[data-theme="light"]', { timeout: 5_000 });

    const bob = await consoleSocket("Bob");
    const mallory = await consoleSocket("Mallory");
    try {
      await say(bob, "!hug everyone");
      await say(mallory, "spam from mallory");
      await say(bob, "a plain line");
      await line(page, "ovation", "a plain line").waitFor({ timeout: 1_000 });
      expect(await page.locator(".ovation-chat-line", { hasText: "!hug" }).count()).toBe(0);
      expect(await page.locator(".ovation-chat-line", { hasText: "mallory" }).count()).toBe(0);
    } finally {
      bob.close();
      mallory.close();
    }
    await page.close();
  });

  it("fades a line after its fade time, shows replies and highlights, hides the bots' answers", { timeout: 60_000 }, async () => {
    await twitchServed();
    const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await openSource(page, "chat", "options", { fade_after_seconds: 1, hide_bot: true, bot_names: ["OvationBot", "nightbot"] });
    await page.evaluate(`document.body.style.background = "#1f2430"`);

    irc.publish("dallas", twitchLine("Parent", "the first question"));
    irc.publish(
      "dallas",
      twitchLine("Replier", "@Parent yes it is", { tags: "reply-parent-display-name=Parent;reply-parent-msg-body=is\\sthis\\slive?;reply-parent-msg-id=aa11;reply-parent-user-id=6001;reply-parent-user-login=parent" }),
    );
    irc.publish("dallas", twitchLine("Shiny", "look at me", { tags: "msg-id=highlighted-message" }));
    irc.publish("dallas", twitchLine("OvationBot", "answer of our bot"));
    irc.publish("dallas", twitchLine("Nightbot", "answer of nightbot", { badges: "moderator/1" }));
    irc.publish("dallas", twitchLine("Viewer", "after the bots"));

    const reply = line(page, "twitch", "yes it is");
    await reply.waitFor({ timeout: 1_000 });
    expect(await reply.locator(".ovation-chat-reply").textContent()).toBe("replying to: is this live?");
    const shiny = line(page, "twitch", "look at me");
    await shiny.waitFor({ timeout: 1_000 });
    expect(await shiny.getAttribute("class")).toContain("ovation-chat-highlight");
    expect(await reply.getAttribute("class")).not.toContain("ovation-chat-highlight");
    await line(page, "twitch", "after the bots").waitFor({ timeout: 1_000 });
    // The bots' lines came before the last one, so they were dropped, not late.
    expect(await page.locator(".ovation-chat-line", { hasText: "answer of" }).count()).toBe(0);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "chat-options.png") });

    // With a 1 s fade every line is gone a little later (generous wait: the machine may be loaded).
    await line(page, "twitch", "the first question").waitFor({ state: "detached", timeout: 10_000 });
    await line(page, "twitch", "after the bots").waitFor({ state: "detached", timeout: 10_000 });
    expect(await page.locator(".ovation-chat-line").count()).toBe(0);

    // Bots shown again when the option is off.
    const list = await server.api<{ data: Array<{ id: number; browser_source_type: string; identifier: string | null }> }>("GET", "/v1/browser-source");
    const options = list.body.data.find((s) => s.browser_source_type === "chat" && s.identifier === "options");
    const saved = await server.api("PUT", `/v1/browser-source/${options?.id}/settings`, { settings: { fade_after_seconds: 0, hide_bot: false, bot_names: ["OvationBot"] } });
    expect(saved.status).toBe(200);
    await expect.poll(async () => {
      irc.publish("dallas", twitchLine("OvationBot", "bot shown now"));
      return line(page, "twitch", "bot shown now").count();
    }, { timeout: 10_000, interval: 500 }).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("the emotewall source", () => {
  it("bursts a chat line's emotes as images, no more than the rate cap allows", { timeout: 60_000 }, async () => {
    await twitchServed();
    const page = await browser.newPage({ viewport: { width: 960, height: 540 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const requested = await serveEmoteCdns(page);
    // Long-lived emotes so every one drawn is still there to count; 4 a second at most.
    await openSource(page, "emotewall", "wall", { max_per_second: 4, max_per_message: 50, max_on_screen: 500, duration_ms: 20_000, size: 96 });
    await page.evaluate(`document.body.style.background = "#1f2430"`);
    const wall = page.locator(".ovation-emotewall");
    await wall.waitFor({ state: "attached", timeout: 5_000 });

    // One line with 20 Kappas (Twitch emote 25): the bucket holds 4, the other 16 are dropped.
    const kappas = Array.from({ length: 20 }, () => "Kappa").join(" ");
    const ranges = Array.from({ length: 20 }, (_, i) => `${i * 6}-${i * 6 + 4}`).join(",");
    irc.publish("dallas", twitchLine("Emoter", kappas, { emotes: `25:${ranges}` }));
    await expect.poll(() => wall.getAttribute("data-dropped"), { timeout: 5_000 }).toBe("16");
    expect(await wall.getAttribute("data-shown")).toBe("4");
    const images = page.locator("img.ovation-wall-emote");
    expect(await images.count()).toBe(4);
    expect(await images.first().getAttribute("src")).toBe("https://static-cdn.jtvnw.net/emoticons/v2/25/default/dark/2.0");
    await expect.poll(() => requested.length, { timeout: 5_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "emotewall-source.png") });

    // A bounded burst: 5 more such lines back to back (100 emotes). Whatever the machine's speed, no
    // more than the bucket's 4 plus 4 a second of the time that passed can have been drawn.
    const started = Date.now();
    for (let i = 0; i < 5; i += 1) irc.publish("dallas", twitchLine("Emoter", kappas, { emotes: `25:${ranges}` }));
    await expect.poll(async () => Number(await wall.getAttribute("data-shown")) + Number(await wall.getAttribute("data-dropped")), { timeout: 10_000 }).toBe(120);
    const elapsedSeconds = (Date.now() - started) / 1000;
    const shown = Number(await wall.getAttribute("data-shown"));
    expect(shown).toBeLessThanOrEqual(4 + 4 + Math.ceil(elapsedSeconds * 4));
    expect(await images.count()).toBe(shown);
    expect(errors).toEqual([]);
    await page.close();
  });
});
