import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildDefaultAlertSet, catalogWithPlatforms } from "@ovation/core/alerts";
import { FakeWebcast, giftStreakMessages, tiktokMessage } from "@ovation/plugin-tiktok/testing";
import { buildApp, loadConfig } from "@ovation/server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_RESULTS_DIR, buildAssets, launchChromium } from "./chromium.js";
import { freePort } from "./free-port.js";
import { serverApi } from "./server-api.js";

/**
 * A TikTok gift streak end to end: the fake webcast server on loopback (real protobuf frames), the
 * REAL server with OVATION_PLUGINS=tiktok reading it through tiktok-live-connector, and the alerts
 * browser source in Debian's Chromium. Five Rose repeats make exactly one alert, with the count 5.
 */

type App = Awaited<ReturnType<typeof buildApp>>;

let fake: FakeWebcast;
let app: App;
let dataDir: string;
let browser: Browser;
let base: string;
let token: string;

const api = serverApi(
  () => base,
  () => token,
);

beforeAll(async () => {
  buildAssets();
  fake = await new FakeWebcast().start();
  dataDir = mkdtempSync(path.join(tmpdir(), "ovation-tiktok-streak-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = loadConfig({ OVATION_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port), OVATION_PUBLIC_URL: base, OVATION_LOG_LEVEL: "silent" });
  app = await buildApp({ config, platforms: { env: { OVATION_PLUGINS: "tiktok", ...fake.serverEnv() } } });
  const user = app.ovation.repos.users.create({ name: "tt", email: "tt@example.test" });
  token = app.ovation.repos.tokens.create({ user_id: user.id, name: "e2e", scopes: ["alerts:manage"] }).token;
  await app.listen({ host: "127.0.0.1", port });

  // TikTok is a plugin platform: its alert types (from the plugin's declaration) join the catalog.
  const { defaults, variations } = buildDefaultAlertSet({ id: 1, user_id: user.id }, { catalog: catalogWithPlatforms(app.platformPlugins.platforms()) });
  const set = await api<{ id: number }>("POST", "/v1/alert-configs", { name: "tt", version: 4, default: { display_time: 3000 }, defaults, variations });
  expect(set.status).toBe(201);
  expect((await api("POST", `/v1/alert-configs/${set.body.id}/activate`)).status).toBe(200);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await fake?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("a TikTok gift streak in the browser source", () => {
  it("plays one donation alert with the streak's final count", { timeout: 60_000 }, async () => {
    const source = await api<{ browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: "alerts" });
    expect(source.status).toBeLessThan(300);
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(source.body.browser_source_url);
    await page.waitForSelector(`#ovation-root[data-state="connected"]`, { timeout: 15_000 });
    await expect.poll(() => app.platformPlugins.health().find((h) => h.name === "tiktok")?.detail ?? "", { timeout: 15_000 }).toMatch(/^live/);
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
    type Log = { data: { notification: { subscription: { type: string }; event: Record<string, unknown> } }[] };
    const types = async (): Promise<string[]> => (await api<Log>("GET", "/v1/alerts/log?limit=20")).body.data.map((e) => e.notification.subscription.type);
    await expect.poll(types, { timeout: 15_000 }).toContain("follow");
    const log = (await api<Log>("GET", "/v1/alerts/log?limit=20")).body.data;
    const donations = log.filter((e) => e.notification.subscription.type === "donation");
    expect(donations).toHaveLength(1);
    expect(donations[0]?.notification.event["data"]).toMatchObject({ name: "rose.sender", gift_name: "Rose", count: 5, amount: "5", currency: "TikTok diamonds" });
    expect(errors).toEqual([]);
    await page.close();
  });
});
