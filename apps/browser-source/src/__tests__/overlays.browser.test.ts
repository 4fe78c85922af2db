import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_RESULTS_DIR, buildAssets, launchChromium } from "./chromium.js";
import { startPlatformServer } from "./platform-server.js";
import type { PlatformServer } from "./platform-server.js";

/**
 * The `events`, `effect-alerts` and `scenes` sources end to end: the REAL server on loopback, alerts
 * sent with `POST /v1/alerts`, the pages in Debian's Chromium.
 */

let server: PlatformServer;
let browser: Browser;

beforeAll(async () => {
  buildAssets();
  // Alerts (and so the effects, which last as long) show 2 s, not 3: the cases wait for effects to
  // end, and the screenshots, taken 0.7 s into an effect, still come before its fade-out (last 20%).
  server = await startPlatformServer("overlays", () => ({ OVATION_PLUGINS: "console" }), 2000);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Source {
  id: number;
  browser_source_url: string;
}

async function generate(type: string, identifier?: string): Promise<Source> {
  const source = await server.api<Source>("POST", "/v1/browser-source/generate", { browser_source_type: type, ...(identifier ? { identifier } : {}) });
  expect(source.status, JSON.stringify(source.body)).toBeLessThan(300);
  return source.body;
}

async function open(url: string, size = { width: 1280, height: 720 }): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: size });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(url);
  await page.waitForSelector(`#ovation-root[data-state="connected"]`, { timeout: 15_000 });
  await page.evaluate(`document.body.style.background = "#1f2430"`);
  return { page, errors };
}

async function alert(body: Record<string, unknown>): Promise<string> {
  const sent = await server.api<{ notification: { id: string } }>("POST", "/v1/alerts", body);
  expect(sent.status).toBe(201);
  return sent.body.notification.id;
}

describe("the events source", () => {
  it("lists a follow and a sub, newest first, live; the logged ones are there at start", { timeout: 60_000 }, async () => {
    const before = await alert({ template: "raid", data: { name: "EarlyRaider", viewers: 12 } });
    const events = await generate("events");
    const saved = await server.api("PUT", `/v1/browser-source/${events.id}/settings`, { settings: { types: ["follow", "subscribe", "raid"], limit: 5 } });
    expect(saved.status).toBe(200);
    const { page, errors } = await open(events.browser_source_url, { width: 480, height: 480 });
    await page.locator(`.ovation-event[data-id="${before}"]`).waitFor({ timeout: 5_000 });

    const follow = await alert({ template: "follow", data: { name: "Fiona <b>" } });
    await page.locator(`.ovation-event[data-id="${follow}"]`).waitFor({ timeout: 5_000 });
    const sub = await alert({ template: "subscribe", data: { name: "Sam", months: 3 } });
    await page.locator(`.ovation-event[data-id="${sub}"]`).waitFor({ timeout: 5_000 });
    // A type the source does not list stays out.
    await alert({ template: "cheer", data: { name: "Bits", amount: 100 } });

    const ids = await page.evaluate(`[...document.querySelectorAll(".ovation-event")].map((row) => row.dataset.id)`);
    expect(ids).toEqual([sub, follow, before]);
    expect(await page.locator(`.ovation-event[data-id="${follow}"] .ovation-event-name`).textContent()).toBe("Fiona <b>");
    expect(await page.locator(`.ovation-event[data-id="${sub}"]`).textContent()).toContain("Sam");
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "events-source.png") });
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("the effect-alerts source", () => {
  it("throws confetti on a sub, sized by the set, for the display time of the alert", { timeout: 60_000 }, async () => {
    const effects = await generate("effect-alerts");
    const { page, errors } = await open(effects.browser_source_url);
    const sub = await alert({ template: "subscribe", data: { name: "Sam", months: 3 } });
    await page.waitForSelector(`#ovation-root[data-effect="confetti"][data-effect-alert="${sub}"]`, { timeout: 10_000 });
    // Pieces are on the canvas: count the painted pixels of a frame.
    await expect
      .poll(
        () =>
          page.evaluate(`(() => {
            const canvas = document.querySelector("canvas.ovation-effects");
            const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
            let painted = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
            return painted;
          })()`) as Promise<number>,
        { timeout: 5_000 },
      )
      .toBeGreaterThan(500);
    await page.waitForTimeout(700);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "effect-alerts-confetti.png") });
    await page.waitForSelector('#ovation-root[data-effects-played="1"]', { timeout: 15_000 });
    expect(await page.locator("#ovation-root").getAttribute("data-effect-pieces")).toBe("150");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("plays the effect the alert set chooses per type and variation over the source's own", { timeout: 90_000 }, async () => {
    interface StoredSet {
      id: number;
      defaults: Array<Record<string, unknown> & { type: string }>;
      variations: Array<Record<string, unknown>>;
      [key: string]: unknown;
    }
    const sets = await server.api<{ data: StoredSet[] }>("GET", "/v1/alert-configs");
    const set = sets.body.data.find((s) => s.active);
    if (!set) throw new Error("no active alert set");
    const { id, created_at: _created, updated_at: _updated, user_id: _user, ...body } = set;
    const subIndex = set.defaults.findIndex((d) => d.type === "subscribe");
    expect(subIndex).toBeGreaterThanOrEqual(0);

    // A typo in an effect is named, and the stored set is left as it was.
    const badDefaults = set.defaults.map((d, i) => (i === subIndex ? { ...d, effect: { effect: "lasers" } } : d));
    const bad = await server.api<{ errors: Record<string, string[]> }>("PUT", `/v1/alert-configs/${id}`, { ...body, defaults: badDefaults });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual([`defaults.${subIndex}.effect.effect`]);

    // Subs: fireworks from the type default; subs of a year or more: hearts from a variation.
    // Cheers have no effect in the set, so the source's own (emote rain) plays.
    const defaults = set.defaults.map((d, i) => (i === subIndex ? { ...d, effect: { effect: "fireworks", per_amount: 0, min_pieces: 40, max_pieces: 40 } } : d));
    const variations = [
      ...set.variations,
      { name: "Long subs", conditions: { and: [{ "===": [{ var: "type" }, "subscribe"] }, { ">=": [{ var: "months" }, 12] }] }, effect: { effect: "hearts", per_amount: 0, min_pieces: 25, max_pieces: 25 } },
    ];
    const saved = await server.api<StoredSet>("PUT", `/v1/alert-configs/${id}`, { ...body, defaults, variations });
    expect(saved.status).toBe(200);
    expect(saved.body.defaults[subIndex]?.effect).toEqual({ effect: "fireworks", per_amount: 0, min_pieces: 40, max_pieces: 40 });

    const effects = await generate("effect-alerts");
    const { page, errors } = await open(effects.browser_source_url);
    const root = page.locator("#ovation-root");
    const short = await alert({ template: "subscribe", data: { name: "Sam", months: 3 } });
    await page.waitForSelector(`#ovation-root[data-effect="fireworks"][data-effect-alert="${short}"]`, { timeout: 10_000 });
    await page.waitForTimeout(700);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "effect-alerts-from-set.png") });
    await page.waitForSelector('#ovation-root[data-effects-played="1"]', { timeout: 15_000 });
    expect(await root.getAttribute("data-effect-pieces")).toBe("40");

    const long = await alert({ template: "subscribe", data: { name: "Lena", months: 14 } });
    await page.waitForSelector(`#ovation-root[data-effect="hearts"][data-effect-alert="${long}"]`, { timeout: 15_000 });
    await page.waitForSelector('#ovation-root[data-effects-played="2"]', { timeout: 15_000 });
    expect(await root.getAttribute("data-effect-pieces")).toBe("25");

    const cheer = await alert({ template: "cheer", data: { name: "Bits", amount: 500 } });
    await page.waitForSelector(`#ovation-root[data-effect="emote-rain"][data-effect-alert="${cheer}"]`, { timeout: 15_000 });
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("the scenes source", () => {
  it("shows its parts at their positions and sizes, and follows a saved layout", { timeout: 90_000 }, async () => {
    const events = await generate("events");
    const chat = await generate("chat");
    const scene = await generate("scenes", "main");
    const bad = await server.api<{ errors: Record<string, string[]> }>("PUT", `/v1/browser-source/${scene.id}/settings`, {
      settings: { parts: [{ browser_source_id: scene.id, x: 0, y: 0, width: 10, height: 10 }] },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(["settings.parts.0.browser_source_id"]);
    const layout = {
      parts: [
        { browser_source_id: events.id, x: 0, y: 0, width: 40, height: 60 },
        { browser_source_id: chat.id, x: 55, y: 50, width: 45, height: 50 },
      ],
    };
    expect((await server.api("PUT", `/v1/browser-source/${scene.id}/settings`, { settings: layout })).status).toBe(200);
    await alert({ template: "follow", data: { name: "SceneFollower" } });

    const { page, errors } = await open(scene.browser_source_url);
    await page.waitForSelector('#ovation-root[data-parts="2"]', { timeout: 10_000 });
    const box = async (id: number) => page.locator(`iframe.ovation-scene-part[data-browser-source-id="${id}"]`).boundingBox();
    expect(await box(events.id)).toEqual({ x: 0, y: 0, width: 512, height: 432 });
    expect(await box(chat.id)).toEqual({ x: 704, y: 360, width: 576, height: 360 });
    // The parts are live pages of their own: the event list inside the frame shows the follow.
    const eventsFrame = page.frameLocator(`iframe[data-browser-source-id="${events.id}"]`);
    await eventsFrame.locator(".ovation-event", { hasText: "SceneFollower" }).waitFor({ timeout: 10_000 });
    // Outline the frames (transparent pages) so the screenshot shows where each part sits.
    await page.evaluate(`document.querySelectorAll("iframe").forEach((f) => { f.style.outline = "2px dashed #ffd166"; f.style.outlineOffset = "-2px"; })`);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "scenes-source.png") });

    // Dragging in the dashboard saves a new layout: the scene moves the part at once.
    const moved = { parts: [{ ...layout.parts[0], x: 60, y: 40 }, layout.parts[1]] };
    expect((await server.api("PUT", `/v1/browser-source/${scene.id}/settings`, { settings: moved })).status).toBe(200);
    await expect.poll(() => box(events.id), { timeout: 10_000 }).toEqual({ x: 768, y: 288, width: 512, height: 432 });
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("an overlay page whose socket joins after a save", () => {
  it("shows the saved options: the join reads the config again (the save's update reached nobody)", { timeout: 60_000 }, async () => {
    const chat = await generate("chat", "late-join");
    const page = await browser.newPage({ viewport: { width: 480, height: 480 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    // The socket's first request waits until the options are saved: the page has read its config
    // (dark) and is not in its room yet when the save announces itself.
    let release!: () => void;
    const saved = new Promise<void>((resolve) => (release = resolve));
    let configReads = 0;
    page.on("request", (request) => {
      if (request.url().includes("/config")) configReads += 1;
    });
    await page.route("**/socket.io/**", async (route) => {
      await saved;
      await route.continue();
    });
    await page.goto(chat.browser_source_url);
    await page.waitForSelector('.ovation-chat[data-theme="dark"]', { timeout: 15_000 });
    const save = await server.api("PUT", `/v1/browser-source/${chat.id}/settings`, { settings: { theme: "light" } });
    expect(save.status).toBe(200);
    release();
    await page.waitForSelector('#ovation-root[data-state="connected"]', { timeout: 15_000 });
    await page.waitForSelector('.ovation-chat[data-theme="light"]', { timeout: 5_000 });
    expect(configReads).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
    await page.close();
  });
});
