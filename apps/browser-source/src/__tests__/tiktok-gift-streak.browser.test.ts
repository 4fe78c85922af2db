import path from "node:path";
import { FakeWebcast, giftStreakMessages, tiktokMessage } from "@ovation/plugin-tiktok/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_RESULTS_DIR, buildAssets, launchChromium } from "./chromium.js";
import { linkChannel, openAlertsSource, startPlatformServer } from "./platform-server.js";
import type { PlatformServer } from "./platform-server.js";

/**
 * A TikTok gift streak end to end: the fake webcast server on loopback (real protobuf frames), the
 * REAL server with OVATION_PLUGINS=tiktok reading it through tiktok-live-connector, and the alerts
 * browser source in Debian's Chromium. Five Rose repeats make exactly one alert, with the count 5.
 * TikTok's alert types come from the plugin's declaration (the catalog has no TikTok entries).
 */

let fake: FakeWebcast;
let server: PlatformServer;
let browser: Browser;
let username = "";

beforeAll(async () => {
  buildAssets();
  fake = await new FakeWebcast().start();
  server = await startPlatformServer("tiktok", () => {
    const { OVATION_TIKTOK_UNIQUE_ID: uniqueId, ...env } = fake.serverEnv();
    username = uniqueId ?? "";
    return { OVATION_PLUGINS: "tiktok", ...env };
  });
  linkChannel(server, { platform: "tiktok", platform_user_id: "open-id-owner", username });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fake?.stop();
});

type Log = { data: { notification: { subscription: { type: string }; event: Record<string, unknown> } }[] };

describe("a TikTok gift streak in the browser source", () => {
  it("plays one donation alert with the streak's final count", { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await openAlertsSource(server, page);
    await expect.poll(() => server.app.platformPlugins.channelStatus("tiktok")[0]?.detail ?? "", { timeout: 15_000 }).toMatch(/^live/);
    await fake.waitForConnections(1);

    for (const step of giftStreakMessages()) fake.push([step]);
    const shown = page.locator(".ovation-alert");
    await shown.first().waitFor({ state: "visible", timeout: 15_000 });
    expect(await shown.first().locator(".ovation-title").textContent()).toBe("rose.sender sent 5 x Rose!");
    expect(await shown.first().textContent()).toContain("5 TikTok diamonds");
    await page.evaluate(`document.body.style.background = "#1f2430"`);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "tiktok-gift-streak.png") });

    // Exactly one alert: once a follow pushed after the streak is in the alert log, the log holds one donation.
    fake.push([tiktokMessage("follow")]);
    const log = async () => (await server.api<Log>("GET", "/v1/alerts/log?limit=20")).body.data.map((e) => e.notification);
    await expect.poll(async () => (await log()).map((n) => n.subscription.type), { timeout: 15_000 }).toContain("follow");
    const donations = (await log()).filter((n) => n.subscription.type === "donation");
    expect(donations).toHaveLength(1);
    expect(donations[0]?.event).toMatchObject({ name: "rose.sender", gift_name: "Rose", count: 5, amount: "5", currency: "TikTok diamonds" });
    expect(errors).toEqual([]);
    await page.close();
  });
});
