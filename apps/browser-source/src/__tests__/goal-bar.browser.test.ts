import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp, loadConfig } from "@ovation/server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_RESULTS_DIR, buildAssets, launchChromium } from "./chromium.js";
import { freePort } from "./free-port.js";
import { serverApi } from "./server-api.js";

/**
 * The `goalbars` browser source end to end: the real server on 127.0.0.1, a goal bar and its
 * browser source made over HTTP, the page in Debian's Chromium, progress moved over HTTP and by a
 * notification, redrawn live over the socket; screenshots in test-results/.
 */

type App = Awaited<ReturnType<typeof buildApp>>;
let app: App;
let base: string;
let token: string;
let dataDir: string;
let browser: Browser;
let userId: number;
const api = serverApi(
  () => base,
  () => token,
);


beforeAll(async () => {
  buildAssets();
  dataDir = mkdtempSync(path.join(tmpdir(), "ovation-goal-bar-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await buildApp({ config: loadConfig({ OVATION_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port), OVATION_PUBLIC_URL: base, OVATION_LOG_LEVEL: "silent" }) });
  await app.listen({ host: "127.0.0.1", port });
  const user = app.ovation.repos.users.create({ name: "goals", email: "goals@example.test" });
  userId = user.id;
  token = app.ovation.repos.tokens.create({ user_id: user.id, name: "e2e", scopes: ["alerts:manage", "widgets:manage"] }).token;
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("goalbars browser source", () => {
  it("renders the goal bar with its style and redraws it live when progress moves", { timeout: 60_000 }, async () => {
    const goal = await api<{ id: number }>("POST", "/v1/goal-bars", {
      title: "Road to 100 subs <b>!</b>",
      kind: "subscribers",
      target: 100,
      start_value: 25,
      style: { bar_color: "#ff2d75", background_color: "#202040", text_color: "#ffffff", font_size: 28, height: 56, border_radius: 28 },
    });
    expect(goal.status).toBe(201);
    const source = await api<{ browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: "goalbars", identifier: String(goal.body.id) });
    expect(source.status).toBeLessThan(300);

    const page = await browser.newPage({ viewport: { width: 960, height: 200 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(source.body.browser_source_url);
    await page.waitForSelector('#ovation-root[data-state="connected"]', { timeout: 15_000 });
    const box = page.locator(".ovation-goal");
    expect(await box.getAttribute("data-percent")).toBe("25");
    expect(await page.locator(".ovation-goal-title").textContent()).toBe("Road to 100 subs <b>!</b>");
    expect(await page.locator(".ovation-goal-label").textContent()).toBe("25 / 100 (25 %)");
    const fill = await page.evaluate<{ color: string; width: number; track: number }>(
      `(() => { const el = document.querySelector(".ovation-goal-fill"); return { color: getComputedStyle(el).backgroundColor, width: el.getBoundingClientRect().width, track: el.parentElement.getBoundingClientRect().width }; })()`,
    );
    expect(fill.color).toBe("rgb(255, 45, 117)");
    expect(fill.width / fill.track).toBeCloseTo(0.25, 1);
    await page.evaluate(`document.body.style.background = "#0b0b0b"`);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "goal-bar-25.png") });

    expect((await api("POST", `/v1/goal-bars/${goal.body.id}/progress`, { operation: "increment", value: 40 })).status).toBe(200);
    await page.waitForSelector('.ovation-goal[data-percent="65"]', { timeout: 10_000 });
    app.ovation.botModules.onNotification(userId, "gift-subscribe", "twitch", { amount: 5 }, null);
    await page.waitForSelector('.ovation-goal[data-percent="70"]', { timeout: 10_000 });
    expect(await page.locator(".ovation-goal-label").textContent()).toBe("70 / 100 (70 %)");
    await page.waitForTimeout(700); // the fill's width transition (600 ms) settles before the picture
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "goal-bar-70.png") });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("says when its goal bar does not exist, and draws it once it is created", { timeout: 60_000 }, async () => {
    const existing = await api<{ data: { id: number }[] }>("GET", "/v1/goal-bars");
    const nextId = Math.max(0, ...existing.body.data.map((g) => g.id)) + 1;
    const source = await api<{ browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: "goalbars", identifier: String(nextId) });
    const page = await browser.newPage({ viewport: { width: 960, height: 200 } });
    await page.goto(source.body.browser_source_url);
    await page.waitForSelector('#ovation-root[data-state="connected"]', { timeout: 15_000 });
    expect(await page.locator(".ovation-status").textContent()).toBe(`Goal bar: there is no goal bar ${nextId}`);
    const created = await api<{ id: number }>("POST", "/v1/goal-bars", { title: "Bits", kind: "bits", target: 1000, start_value: 100 });
    expect(created.body.id).toBe(nextId);
    await page.waitForSelector(`.ovation-goal[data-goal-id="${nextId}"][data-percent="10"]`, { timeout: 10_000 });
    await page.close();
  });

  it("shows progress made before its socket joined: the join reads the goal bar again", { timeout: 60_000 }, async () => {
    const goal = await api<{ id: number }>("POST", "/v1/goal-bars", { title: "Late join", kind: "followers", target: 10, start_value: 1 });
    expect(goal.status).toBe(201);
    const source = await api<{ browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: "goalbars", identifier: String(goal.body.id) });
    const page = await browser.newPage({ viewport: { width: 960, height: 200 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    // The socket's first request waits until the progress has moved: the page has drawn 10 % from
    // its config and is not in its room when the update goes out.
    let release!: () => void;
    const moved = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/socket.io/**", async (route) => {
      await moved;
      await route.continue();
    });
    await page.goto(source.body.browser_source_url);
    await page.waitForSelector('.ovation-goal[data-percent="10"]', { timeout: 15_000 });
    expect((await api("POST", `/v1/goal-bars/${goal.body.id}/progress`, { operation: "increment", value: 4 })).status).toBe(200);
    release();
    await page.waitForSelector('#ovation-root[data-state="connected"]', { timeout: 15_000 });
    await page.waitForSelector('.ovation-goal[data-percent="50"]', { timeout: 5_000 });
    expect(errors).toEqual([]);
    await page.close();
  });
});
