import path from "node:path";
import { FakeKick, KickWebhookSender } from "@ovation/plugin-kick/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_RESULTS_DIR, buildAssets, launchChromium } from "./chromium.js";
import { linkChannel, openAlertsSource, startPlatformServer } from "./platform-server.js";
import type { PlatformServer } from "./platform-server.js";

/**
 * A Kick subscription end to end: the fake Kick API on loopback, the REAL server with
 * OVATION_PLUGINS=kick trusting the test webhook key, a signed `channel.subscription.new` webhook
 * POSTed to the server's route, and the alerts browser source in Debian's Chromium.
 */

let kick: FakeKick;
let sender: KickWebhookSender;
let server: PlatformServer;
let browser: Browser;

beforeAll(async () => {
  buildAssets();
  kick = await FakeKick.start();
  sender = new KickWebhookSender();
  kick.publicKeyPem = sender.publicKeyPem;
  server = await startPlatformServer("kick", (base) => {
    sender.url = `${base}/v1/platforms/kick/webhook`;
    return { OVATION_PLUGINS: "kick", ...kick.serverEnv(), OVATION_KICK_WEBHOOK_PUBLIC_KEY: sender.publicKeyPem };
  });
  const account = kick.accounts[0];
  if (!account) throw new Error("the fake has no account");
  linkChannel(server, { platform: "kick", platform_user_id: String(account.user_id), username: account.name, refreshToken: account.refreshToken });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await kick?.close();
});

describe("a Kick subscription in the browser source", () => {
  it("plays the subscribe alert with the subscriber's name; a forged copy plays nothing", { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await openAlertsSource(server, page);
    await expect.poll(() => server.app.platformPlugins.channelStatus("kick")[0]?.state ?? "", { timeout: 15_000 }).toBe("serving");

    const [forged] = await sender.attack("forged-signature");
    expect(forged?.status).toBe(403);
    const sent = await sender.send("subscription-new");
    expect(sent.status).toBe(200);
    const shown = page.locator(".ovation-alert");
    await shown.first().waitFor({ state: "visible", timeout: 15_000 });
    const text = (await shown.first().textContent()) ?? "";
    expect(text).toMatch(/SubAlice\s*just subscribed/);
    await page.evaluate(`document.body.style.background = "#1f2430"`);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "kick-subscription.png") });
    // Only the genuine delivery reached the alert log.
    expect(await shown.count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
