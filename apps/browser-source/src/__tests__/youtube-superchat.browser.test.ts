import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildDefaultAlertSet } from "@ovation/core";
import { FakeGoogle, chatMessage } from "@ovation/plugin-youtube/testing";
import { buildApp, loadConfig } from "@ovation/server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_RESULTS_DIR, buildAssets, launchChromium } from "./chromium.js";
import { freePort } from "./free-port.js";
import { serverApi } from "./server-api.js";

/**
 * A YouTube Super Chat end to end: the fake Google on loopback, the REAL server with
 * OVATION_PLUGINS=youtube polling it, and the alerts browser source in Debian's Chromium.
 */

type App = Awaited<ReturnType<typeof buildApp>>;

let google: FakeGoogle;
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
  google = await FakeGoogle.start();
  google.live = true;
  dataDir = mkdtempSync(path.join(tmpdir(), "ovation-youtube-superchat-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = loadConfig({ OVATION_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port), OVATION_PUBLIC_URL: base, OVATION_LOG_LEVEL: "silent" });
  app = await buildApp({
    config,
    platforms: {
      env: { OVATION_PLUGINS: "youtube", ...google.serverEnv() },
    },
  });
  // The plugin serves the first user: it exists before the server listens.
  const user = app.ovation.repos.users.create({ name: "yt", email: "yt@example.test" });
  token = app.ovation.repos.tokens.create({ user_id: user.id, name: "e2e", scopes: ["alerts:manage"] }).token;
  await app.listen({ host: "127.0.0.1", port });

  const { defaults, variations } = buildDefaultAlertSet({ id: 1, user_id: user.id });
  const set = await api<{ id: number }>("POST", "/v1/alert-configs", { name: "yt", version: 4, default: { display_time: 3000 }, defaults, variations });
  expect(set.status).toBe(201);
  expect((await api("POST", `/v1/alert-configs/${set.body.id}/activate`)).status).toBe(200);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await google?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("a YouTube Super Chat in the browser source", () => {
  it("plays the superchat alert with the catalog's YouTube title and the viewer's message", { timeout: 60_000 }, async () => {
    const source = await api<{ browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: "alerts" });
    expect(source.status).toBeLessThan(300);
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(source.body.browser_source_url);
    await page.waitForSelector(`#ovation-root[data-state="connected"]`, { timeout: 15_000 });
    await expect.poll(() => app.platformPlugins.health().find((h) => h.name === "youtube")?.detail ?? "", { timeout: 15_000 }).toMatch(/^live/);

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
