import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp, loadConfig } from "@ovation/server";
import type { Browser, Page } from "playwright-core";
import { io } from "socket.io-client";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_RESULTS_DIR, buildAssets, launchChromium } from "./chromium.js";
import { freePort } from "./free-port.js";
import { serverApi } from "./server-api.js";

/**
 * The bot modules' browser sources end to end: the real server on 127.0.0.1, viewers typing in the
 * console (`/console` namespace), the `poll` and `queue` pages in Debian's Chromium redrawing on each
 * `bot-module` event; screenshots in test-results/.
 */

type App = Awaited<ReturnType<typeof buildApp>>;
let app: App;
let base: string;
let token: string;
let dataDir: string;
let browser: Browser;
let clock = Date.parse("2026-11-26T18:00:00Z");
const sockets: Socket[] = [];
const api = serverApi(
  () => base,
  () => token,
);

beforeAll(async () => {
  buildAssets();
  dataDir = mkdtempSync(path.join(tmpdir(), "ovation-module-sources-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await buildApp({
    config: loadConfig({ OVATION_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port), OVATION_PUBLIC_URL: base, OVATION_LOG_LEVEL: "silent" }),
    botModules: { now: () => clock },
  });
  await app.listen({ host: "127.0.0.1", port });
  const user = app.ovation.repos.users.create({ name: "Streamer", email: "modules@example.test" });
  token = app.ovation.repos.tokens.create({ user_id: user.id, name: "e2e", scopes: ["alerts:manage", "chatbot:manage:polls", "chatbot:manage:queue"] }).token;
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await browser?.close();
  await app?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A viewer typing in the console. */
async function viewer(as: string, badges: string[] = []): Promise<(text: string) => Promise<void>> {
  const socket = io(`${base}/console`, { auth: { token, as, badges }, transports: ["websocket"], reconnection: false });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("ready", () => resolve());
    socket.once("connect_error", reject);
  });
  return async (text) => {
    const answer = (await socket.timeout(5_000).emitWithAck("line", text)) as { accepted: boolean; message?: string };
    expect(answer.accepted, answer.message).toBe(true);
  };
}

async function openSource(type: "poll" | "queue"): Promise<{ page: Page; errors: string[] }> {
  const source = await api<{ browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: type });
  expect(source.status).toBeLessThan(300);
  const page = await browser.newPage({ viewport: { width: 560, height: 420 } });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(source.body.browser_source_url);
  await page.waitForSelector('#ovation-root[data-state="connected"]', { timeout: 15_000 });
  await page.evaluate(`document.body.style.background = "#2b3a4a"`);
  return { page, errors };
}

const votesOf = (page: Page) => page.locator(".ovation-poll-votes").allTextContents();

describe("poll and queue browser sources", () => {
  it("shows a poll from open to result: each vote moves the bars, the winner is marked at the end", { timeout: 90_000 }, async () => {
    const { page, errors } = await openSource("poll");
    expect(await page.locator(".ovation-poll").count()).toBe(0); // no poll yet
    const started = await api("POST", "/v1/bots/@me/polls", { title: "Which map <b>next</b>?", choices: ["Dust", "Mirage", "Inferno"], duration_seconds: 60 });
    expect(started.status).toBe(201);
    await page.waitForSelector('.ovation-poll[data-status="open"]', { timeout: 10_000 });
    expect(await page.locator(".ovation-poll-title").textContent()).toBe("Which map <b>next</b>?");
    expect(await page.locator(".ovation-poll-label").allTextContents()).toEqual(["1. Dust", "2. Mirage", "3. Inferno"]);

    const voters = await Promise.all(["ann", "bob", "cid", "dot", "eve"].map((name) => viewer(name)));
    const choices = ["2", "2", "1", "2", "3"];
    for (const [i, vote] of voters.entries()) await vote(`!vote ${choices[i]}`);
    await expect.poll(() => page.locator(".ovation-poll-foot").textContent(), { timeout: 10_000 }).toBe("5 votes · !vote 1-3");
    expect(await votesOf(page)).toEqual(["20% · 1", "60% · 3", "20% · 1"]);
    await page.waitForTimeout(600); // the bars' width transition settles before the picture
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "poll-open.png") });

    clock += 61_000;
    await app.ovation.botModules.tick();
    await page.waitForSelector('.ovation-poll[data-status="ended"]', { timeout: 10_000 });
    expect(await page.locator('.ovation-poll-choice[data-winner="true"] .ovation-poll-label').allTextContents()).toEqual(["2. Mirage"]);
    expect(await page.locator(".ovation-poll-foot").textContent()).toBe("Poll over · 5 votes");
    await page.waitForTimeout(600);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "poll-ended.png") });

    // A source opened after the end starts from the result.
    const late = await openSource("poll");
    expect(await late.page.locator(".ovation-poll").getAttribute("data-status")).toBe("ended");
    expect(await votesOf(late.page)).toEqual(["20% · 1", "60% · 3", "20% · 1"]);
    expect([...errors, ...late.errors]).toEqual([]);
    await late.page.close();
    await page.close();
  });

  it("lists the queue as viewers join and are picked", { timeout: 90_000 }, async () => {
    const { page, errors } = await openSource("queue");
    expect(await page.locator(".ovation-queue-head").textContent()).toBe("Queue closed · 0 waiting");
    expect((await api("POST", "/v1/bots/@me/queue/open")).status).toBe(200);
    await expect.poll(() => page.locator(".ovation-queue-head").textContent(), { timeout: 10_000 }).toBe("Queue · 0 waiting · !join");
    const names = ["PixelPia", "Nico", "Sam_the_Sub", "Lou", "Kai"];
    for (const [i, name] of names.entries()) {
      await (await viewer(name, name === "Sam_the_Sub" ? ["subscriber"] : []))(name === "Nico" ? "!join NicoGamer#42" : "!join");
      await expect.poll(() => page.locator(".ovation-queue-entry").count(), { timeout: 10_000 }).toBe(i + 1);
    }
    expect(await page.locator(".ovation-queue-entry .ovation-queue-name").allTextContents()).toEqual(names);
    expect(await page.locator(".ovation-queue-note").allTextContents()).toEqual(["NicoGamer#42"]);
    expect((await api("POST", "/v1/bots/@me/queue/pick", { mode: "next" })).status).toBe(200);
    await page.waitForSelector(".ovation-queue-current", { timeout: 10_000 });
    expect(await page.locator(".ovation-queue-current .ovation-queue-name").textContent()).toBe("PixelPia");
    expect(await page.locator(".ovation-queue-entry .ovation-queue-place").allTextContents()).toEqual(["1.", "2.", "3.", "4."]);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "queue.png") });
    expect(errors).toEqual([]);
    await page.close();
  });
});
