import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeKick } from "@ovation/plugin-kick/testing";
import { FakeGoogle } from "@ovation/plugin-youtube/testing";
import { TWITCH_BROADCASTER_SCOPES } from "@ovation/plugin-twitch";
import { FakeEventSubServer, FakeHelix, FakeIrcServer } from "@ovation/plugin-twitch/testing";
// The server's own helpers and settings, shared rather than copied.
import { hashPassword } from "../../../server/src/identity/accounts/passwords.js";
import { defaultPlatformSettings } from "../../../server/src/identity/platforms/settings.js";
import { buildAssets, startDashboard } from "./harness.js";
import type { DashboardHarness } from "./harness.js";

const PASSWORD = "correct horse battery staple";

/**
 * Issue 24's walk through the dashboard, in real Chromium against the platform fakes, with the
 * Twitch, Kick and YouTube plugins running (no restart): three streamers sign in, each connects a
 * different Twitch, Kick and YouTube account on the Connections page, each channel reaches
 * "serving"; one switches the Kick bot off; one disconnects Twitch through the page (with its
 * confirmation) and the bot leaves that channel only. TikTok has no OAuth fake, so it is not walked.
 */
describe("three streamers connect their own channels from the dashboard (issue 24)", () => {
  let h: DashboardHarness;
  let helix: FakeHelix;
  let chat: FakeIrcServer;
  let eventsub: FakeEventSubServer;
  let kick: FakeKick;
  let google: FakeGoogle;
  const logins = ["annie", "benny", "cathy"];
  const kickAccounts = [
    { user_id: 123456789, name: "KickStreamer" },
    { user_id: 200000002, name: "SecondStreamer" },
    { user_id: 300000003, name: "ThirdStreamer" },
  ];
  const streamers: { id: number; email: string; token: string }[] = [];

  const card = (page: Page, platform: string) => page.locator(`li.connection-card[data-platform="${platform}"]`);

  async function signInAs(page: Page, email: string): Promise<void> {
    await page.goto(`${h.dashboard}/connections`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.locator("main h1.page-title").waitFor({ timeout: 30_000 });
  }

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
    for (const account of kickAccounts.slice(1)) kick.addAccount(account.user_id, account.name);
    google = await FakeGoogle.start();
    google.live = true;
    google.addChannel("UCsecond0000000000000000", "SecondTuber", true);
    google.addChannel("UCthird00000000000000000", "ThirdTuber", true);
    const twitchSettings = defaultPlatformSettings("twitch", { clientId: "fake-client", clientSecret: "fake-secret" }, { authorizeUrl: `${helix.base}/oauth2/authorize`, tokenUrl: `${helix.base}/oauth2/token`, apiUrl: `${helix.base}/helix` });
    const kickSettings = defaultPlatformSettings("kick", { clientId: kick.clientId, clientSecret: kick.clientSecret }, { authorizeUrl: kick.authorizeUrl, tokenUrl: kick.tokenUrl, apiUrl: kick.apiUrl });
    const youtubeSettings = defaultPlatformSettings("youtube", { clientId: google.clientId, clientSecret: google.clientSecret }, { authorizeUrl: `http://127.0.0.1:${google.port}/o/oauth2/v2/auth`, tokenUrl: google.tokenUrl, apiUrl: google.apiUrl });
    if (twitchSettings === null || kickSettings === null || youtubeSettings === null) throw new Error("no platform settings");
    expect(twitchSettings.scopes).toEqual(TWITCH_BROADCASTER_SCOPES);
    h = await startDashboard({
      platforms: {
        env: {
          OVATION_PLUGINS: "console,twitch,kick,youtube",
          OVATION_TWITCH_USERNAME: "ovationbot",
          OVATION_TWITCH_TOKEN: "oauth:good-token",
          OVATION_TWITCH_CLIENT_ID: "fake-client",
          OVATION_TWITCH_CLIENT_SECRET: "fake-secret",
          OVATION_TWITCH_IRC_URL: `ws://127.0.0.1:${chat.port}`,
          OVATION_TWITCH_EVENTSUB_URL: eventsub.url,
          OVATION_TWITCH_HELIX_URL: `${helix.base}/helix`,
          OVATION_TWITCH_TOKEN_URL: `${helix.base}/oauth2/token`,
          ...kick.serverEnv(),
          ...google.serverEnv(),
          OVATION_YOUTUBE_DAILY_QUOTA: "9000000",
        },
      },
      identity: { platforms: [twitchSettings, kickSettings, youtubeSettings] },
    });
    streamers.push({ id: h.user.id, email: h.user.email, token: h.user.token });
    for (const name of ["second", "third"]) {
      const email = `${name}@example.com`;
      const user = h.app.ovation.repos.users.create({ name, email, email_verified_at: new Date().toISOString(), password_hash: await hashPassword(PASSWORD) });
      streamers.push({ id: user.id, email, token: h.app.ovation.repos.tokens.create({ user_id: user.id, name: "walk", scopes: ["*"] }).token });
    }
    // What `ovation start` does once the first user exists: the plugins made on listen start now.
    await h.app.platformPluginsAfterFirstRun();
  }, 300_000);
  afterAll(async () => {
    await h?.close();
    await chat?.close();
    await eventsub?.close();
    await helix?.close();
    await kick?.close();
    await google?.close();
  });

  it("each streamer connects their own Twitch, Kick and YouTube channel and sees it serving; one switches Kick off, one disconnects Twitch", async () => {
    const pages: Page[] = [];
    for (const [i, streamer] of streamers.entries()) {
      const { page } = await h.open();
      pages.push(page);
      await signInAs(page, streamer.email);
      helix.nextUser = logins[i] ?? "";
      await connect(page, "twitch", "Twitch");
      kick.nextAccount = kickAccounts[i]?.user_id ?? null;
      await connect(page, "kick", "Kick");
      google.nextChannel = google.channels[i]?.id ?? null;
      await connect(page, "youtube", "YouTube");
    }
    // Each channel is served without a restart; the page shows it once refreshed.
    for (const [i, page] of pages.entries()) {
      for (const platform of ["twitch", "kick", "youtube"]) {
        await expect
          .poll(
            async () => {
              await page.getByRole("button", { name: "Refresh" }).click();
              return card(page, platform).getAttribute("data-state");
            },
            { timeout: 60_000, interval: 1_000 },
          )
          .toBe("serving");
      }
      expect(await card(page, "twitch").locator(".connection-name").textContent()).toBe(logins[i]);
      expect(await card(page, "kick").locator(".connection-name").textContent()).toBe(kickAccounts[i]?.name);
      expect(await card(page, "youtube").locator(".connection-name").textContent()).not.toBe("");
    }
    await h.screenshot(pages[0] as Page, "connections-serving.desktop-light");
    expect(chat.received.filter((l) => l.startsWith("JOIN ")).join(",")).toMatch(/#annie.*|#benny|#cathy/);

    // The second streamer switches the bot off on Kick: the channel is no longer served, the link stays.
    const second = pages[1] as Page;
    await card(second, "kick").getByRole("switch", { name: "Bot and alerts on this channel" }).uncheck();
    await expect
      .poll(
        async () => {
          await second.getByRole("button", { name: "Refresh" }).click();
          return card(second, "kick").getAttribute("data-state");
        },
        { timeout: 60_000, interval: 1_000 },
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
    expect(left.map((c) => c.platform).sort()).toEqual(["kick", "youtube"]);
  }, 300_000);
});
