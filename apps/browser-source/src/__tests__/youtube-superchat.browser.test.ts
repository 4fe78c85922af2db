import path from "node:path";
import { FakeGoogle, chatMessage } from "@ovation/plugin-youtube/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_RESULTS_DIR, buildAssets, launchChromium } from "./chromium.js";
import { linkChannel, openAlertsSource, startPlatformServer } from "./platform-server.js";
import type { PlatformServer } from "./platform-server.js";

/**
 * A YouTube Super Chat end to end: the fake Google on loopback, the REAL server with
 * OVATION_PLUGINS=youtube polling it, and the alerts browser source in Debian's Chromium.
 */

let google: FakeGoogle;
let server: PlatformServer;
let browser: Browser;

beforeAll(async () => {
  buildAssets();
  google = await FakeGoogle.start();
  google.live = true;
  server = await startPlatformServer("yt", () => ({ OVATION_PLUGINS: "youtube", ...google.serverEnv() }));
  const channel = google.channels[0];
  if (!channel) throw new Error("the fake has no channel");
  linkChannel(server, { platform: "youtube", platform_user_id: channel.id, username: channel.title, refreshToken: channel.refreshToken });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await google?.close();
});

describe("a YouTube Super Chat in the browser source", () => {
  it("plays the superchat alert with the catalog's YouTube title and the viewer's message", { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await openAlertsSource(server, page);
    await expect.poll(() => server.app.platformPlugins.channelStatus("youtube")[0]?.detail ?? "", { timeout: 15_000 }).toMatch(/^live/);

    google.publish(chatMessage("super-chat"));
    const shown = page.locator(".ovation-alert");
    await shown.first().waitFor({ state: "visible", timeout: 15_000 });
    expect(await shown.first().locator(".ovation-title").textContent()).toBe("New super chat from Carol");
    expect(await shown.first().textContent()).toContain("Love the stream!");
    await page.evaluate(`document.body.style.background = "#1f2430"`);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "youtube-superchat.png") });
    expect(errors).toEqual([]);
    await page.close();
  });
});
