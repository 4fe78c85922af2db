import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAssets, launchChromium } from "./chromium.js";
import { startPlatformServer } from "./platform-server.js";
import type { PlatformServer } from "./platform-server.js";
import { serverApi } from "./server-api.js";

/**
 * Read-aloud alerts end to end: the REAL server synthesises with the embedded eSpeak NG (no network),
 * moderates what is read (auto-moderation word list, links, repeated characters, blocked viewer,
 * approval queue), and the alerts source in Debian's Chromium plays the audio after the alert.
 */

let server: PlatformServer;
let browser: Browser;
let page: Page;
let sourceId = 0;

beforeAll(async () => {
  buildAssets();
  // Alerts show 1.5 s, not 3: each message is read once its alert has left.
  server = await startPlatformServer("tts", () => ({ OVATION_PLUGINS: "console" }), 1500);
  const owner = server.app.ovation.repos.users.list()[0];
  if (!owner) throw new Error("no user");
  const modToken = server.app.ovation.repos.tokens.create({ user_id: owner.id, name: "mod", scopes: ["chatbot:manage:moderation"] }).token;
  const mod = serverApi(
    () => server.base,
    () => modToken,
  );
  expect((await mod("PUT", "/v1/bots/@me/moderation", { bad_words: { enabled: true, words: ["darnit"] } })).status).toBe(200);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function tip(name: string, message: string): Promise<string> {
  const sent = await server.api<{ notification: { id: string } }>("POST", "/v1/alerts", { template: "donation", platform: "ovation", data: { name, amount: 5, currency: "USD", message } });
  expect(sent.status).toBe(201);
  return sent.body.notification.id;
}

const root = () => page.locator("#ovation-root");

describe("read-aloud alerts", () => {
  it("previews a text as WAV, and names a voice the engine does not have", { timeout: 120_000 }, async () => {
    const anonymous = await fetch(`${server.base}/v1/tts/preview`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"text":"hi"}' });
    expect(anonymous.status).toBe(401);
    const token = server.app.ovation.repos.tokens.create({ user_id: 1, name: "preview", scopes: ["alerts:manage"] }).token;
    const ok = await fetch(`${server.base}/v1/tts/preview`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ text: "Hello from the preview" }),
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("audio/wav");
    const wav = Buffer.from(await ok.arrayBuffer());
    expect(wav.toString("ascii", 0, 4)).toBe("RIFF");
    expect(Number(ok.headers.get("x-ovation-speech-duration-ms"))).toBeGreaterThan(500);
    const bad = await server.api<{ errors: Record<string, string[]> }>("POST", "/v1/tts/preview", { text: "Hello", voice: "zz-nope" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(["voice"]);
    const voices = await server.api<{ engine: string; default: string; data: string[] }>("GET", "/v1/tts/voices");
    expect(voices.body.engine).toBe("espeak-ng");
    expect(voices.body.data).toContain("en-us");
  });

  it("reads a tip's message after the alert: the audio decodes and lasts, the blocked word and the link are not read", { timeout: 120_000 }, async () => {
    const source = await server.api<{ id: number; browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: "alerts" });
    sourceId = source.body.id;
    const saved = await server.api("PUT", `/v1/browser-source/${sourceId}/settings`, { settings: { tts: { enabled: true, types: { donation: { min_amount: 1 } }, blocked_viewers: ["Troll"] } } });
    expect(saved.status).toBe(200);
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(source.body.browser_source_url);
    await page.waitForSelector(`#ovation-root[data-state="connected"]`, { timeout: 15_000 });

    await tip("Tipper", "Thanks for the stream, darnit!!!!!!! see https://spam.example.com/x now");
    await page.waitForSelector('#ovation-root[data-speech="read"]', { timeout: 60_000 });
    const text = (await root().getAttribute("data-speech-text")) ?? "";
    expect(text).toContain("Thanks for the stream");
    expect(text.toLowerCase()).not.toContain("darnit");
    expect(text).not.toContain("spam.example.com");
    expect(text).not.toContain("!!!!");
    await expect.poll(async () => Number(await root().getAttribute("data-speech-duration")), { timeout: 10_000 }).toBeGreaterThan(0);
  });

  it("reads nothing from a blocked viewer; holds for approval and reads once approved", { timeout: 120_000 }, async () => {
    await tip("Troll", "read me please");
    await page.waitForSelector('#ovation-root[data-speech="blocked_viewer"]', { timeout: 30_000 });

    // The page reads its config at start and again on each join of its room: wait for the read after the save.
    const configs = async () => Number(await root().getAttribute("data-config-version"));
    const before = await configs();
    expect((await server.api("PUT", `/v1/browser-source/${sourceId}/settings`, { settings: { tts: { enabled: true, types: { donation: { min_amount: 1 } }, approval: true } } })).status).toBe(200);
    await expect.poll(configs, { timeout: 10_000 }).toBeGreaterThan(before);
    const held = await tip("Patient", "wait for the moderator");
    await page.waitForSelector('#ovation-root[data-speech="held"]', { timeout: 30_000 });
    const queue = await server.api<{ data: Array<{ notification_id: string; text: string }> }>("GET", "/v1/tts/queue");
    expect(queue.body.data).toEqual([expect.objectContaining({ notification_id: held, text: "wait for the moderator" })]);
    expect((await server.api("POST", `/v1/tts/queue/${held}/approve`)).status).toBe(200);
    await page.waitForSelector('#ovation-root[data-speech="read"]', { timeout: 60_000 });
    expect(await root().getAttribute("data-speech-text")).toBe("wait for the moderator");
    expect((await server.api("POST", `/v1/tts/queue/${held}/skip`)).status).toBe(404);
    await page.close();
  });
});
