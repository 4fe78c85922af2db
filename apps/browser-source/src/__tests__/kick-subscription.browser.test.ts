import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildDefaultAlertSet } from "@ovation/core";
import { FakeKick, KickWebhookSender } from "@ovation/plugin-kick/testing";
import { buildApp, loadConfig } from "@ovation/server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_RESULTS_DIR, buildAssets, launchChromium } from "./chromium.js";
import { freePort } from "./free-port.js";
import { serverApi } from "./server-api.js";

/**
 * A Kick subscription end to end: the fake Kick API on loopback, the REAL server with
 * OVATION_PLUGINS=kick trusting the test webhook key, a signed `channel.subscription.new` webhook
 * POSTed to the server's route, and the alerts browser source in Debian's Chromium.
 */

type App = Awaited<ReturnType<typeof buildApp>>;

let kick: FakeKick;
let sender: KickWebhookSender;
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
  kick = await FakeKick.start();
  sender = new KickWebhookSender();
  kick.publicKeyPem = sender.publicKeyPem;
  dataDir = mkdtempSync(path.join(tmpdir(), "ovation-kick-subscription-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  sender.url = `${base}/v1/platforms/kick/webhook`;
  const config = loadConfig({ OVATION_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port), OVATION_PUBLIC_URL: base, OVATION_LOG_LEVEL: "silent" });
  app = await buildApp({
    config,
    platforms: { env: { OVATION_PLUGINS: "kick", ...kick.serverEnv(), OVATION_KICK_WEBHOOK_PUBLIC_KEY: sender.publicKeyPem } },
  });
  // The plugin serves the first user: it exists before the server listens.
  const user = app.ovation.repos.users.create({ name: "kick", email: "kick@example.test" });
  token = app.ovation.repos.tokens.create({ user_id: user.id, name: "e2e", scopes: ["alerts:manage"] }).token;
  await app.listen({ host: "127.0.0.1", port });

  const { defaults, variations } = buildDefaultAlertSet({ id: 1, user_id: user.id });
  const set = await api<{ id: number }>("POST", "/v1/alert-configs", { name: "kick", version: 4, default: { display_time: 3000 }, defaults, variations });
  expect(set.status).toBe(201);
  expect((await api("POST", `/v1/alert-configs/${set.body.id}/activate`)).status).toBe(200);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await kick?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("a Kick subscription in the browser source", () => {
  it("plays the subscribe alert with the subscriber's name; a forged copy plays nothing", { timeout: 60_000 }, async () => {
    const source = await api<{ browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: "alerts" });
    expect(source.status).toBeLessThan(300);
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(source.body.browser_source_url);
    await page.waitForSelector(`#ovation-root[data-state="connected"]`, { timeout: 15_000 });
    await expect.poll(() => app.platformPlugins.health().find((h) => h.name === "kick")?.detail ?? "", { timeout: 15_000 }).toMatch(/events subscribed/);

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
