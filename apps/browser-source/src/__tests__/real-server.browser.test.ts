import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildDefaultAlertSet } from "@ovation/core";
import { buildApp, loadConfig } from "@ovation/server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_RESULTS_DIR, buildAssets, launchChromium } from "./chromium.js";
import { freePort } from "./free-port.js";
import { serverApi } from "./server-api.js";

/**
 * The page end to end: the REAL server (buildApp, lowdb in a temp dir, socket.io) on 127.0.0.1, a
 * user and token, an alert set and browser sources made over HTTP, alerts triggered over HTTP, and
 * the page in Debian's Chromium.
 */

const root = "#ovation-root";
const DISPLAY_MS = 1500;

type App = Awaited<ReturnType<typeof buildApp>>;

let app: App;
let config: Parameters<typeof buildApp>[0]["config"];
let port: number;
let base: string;
let token: string;
let dataDir: string;
let browser: Browser;
let pageUrl: string;
let browserSourceId: number;
let alertSetId: number;
let stallServer: Server;
let stallUrl: string;
const stalled: ServerResponse[] = [];

const api = serverApi(
  () => base,
  () => token,
);

async function trigger(body: unknown): Promise<string> {
  const response = await api<{ notification: { id: string } }>("POST", "/v1/alerts", body);
  expect(response.status).toBe(201);
  return response.body.notification.id;
}

function alertSetBody(displayMs: number): Record<string, unknown> {
  const { defaults, variations } = buildDefaultAlertSet({ id: 1, user_id: 1 });
  return { name: "e2e", version: 4, default: { display_time: displayMs }, defaults, variations };
}

async function openPage(url = pageUrl): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(url);
  await page.waitForSelector(`${root}[data-state="connected"]`, { timeout: 15_000 });
  return { page, dialogs, errors };
}

async function acknowledged(id: string): Promise<boolean> {
  const log = await api<{ data: { notification: { notification: { id: string } }; acknowledged_by: number[] }[] }>("GET", "/v1/alerts/log");
  return log.body.data.some((entry) => entry.notification.notification.id === id && entry.acknowledged_by.includes(browserSourceId));
}

beforeAll(async () => {
  buildAssets();
  dataDir = mkdtempSync(path.join(tmpdir(), "ovation-browser-source-"));
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  config = loadConfig({ OVATION_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port), OVATION_PUBLIC_URL: base, OVATION_LOG_LEVEL: "silent" });
  app = await buildApp({ config });
  await app.listen({ host: "127.0.0.1", port });

  const user = app.ovation.repos.users.create({ name: "e2e", email: "e2e@example.test" });
  token = app.ovation.repos.tokens.create({ user_id: user.id, name: "e2e", scopes: ["alerts:manage"] }).token;

  const set = await api<{ id: number }>("POST", "/v1/alert-configs", alertSetBody(DISPLAY_MS));
  expect(set.status).toBe(201);
  alertSetId = set.body.id;
  expect((await api("POST", `/v1/alert-configs/${alertSetId}/activate`)).status).toBe(200);
  const source = await api<{ id: number; browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: "alerts" });
  expect(source.status).toBeLessThan(300);
  browserSourceId = source.body.id;
  pageUrl = source.body.browser_source_url;

  stallServer = createServer((_request, response) => {
    stalled.push(response);
  });
  await new Promise<void>((resolve) => stallServer.listen(0, "127.0.0.1", resolve));
  stallUrl = `http://127.0.0.1:${(stallServer.address() as AddressInfo).port}`;

  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  for (const response of stalled) response.destroy();
  await new Promise<void>((resolve) => (stallServer ? stallServer.close(() => resolve()) : resolve()));
  await app?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("browser-source page on the real server", () => {
  it("plays an alert triggered over HTTP with its resolved title, removes it after display_time, and acknowledges it", async () => {
    const { page, errors } = await openPage();
    // The phases the alert goes through, recorded in the page: its "showing" phase lasts 500 ms here,
    // which a busy machine can let pass between two checks from the test.
    await page.evaluate(`(() => {
      window.phases = [];
      new MutationObserver((changes) => {
        for (const change of changes) if (change.target.dataset?.phase) window.phases.push(change.target.dataset.phase);
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-phase"] });
    })()`);
    const id = await trigger({ template: "follow", data: { name: "Alice" } });
    const shown = page.locator(`.ovation-alert[data-notification-id="${id}"]`);
    await shown.waitFor({ state: "attached", timeout: 10_000 });
    expect(await shown.locator(".ovation-title").textContent()).toBe("Alice is now following");
    await expect.poll(() => page.evaluate<string[]>("window.phases"), { timeout: 10_000 }).toContain("showing");
    // OBS composites the transparent page over the stream; a dark backdrop stands in for it here.
    await page.evaluate(`document.body.style.background = "#1f2430"`);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "browser-source-alert.png") });
    await shown.waitFor({ state: "detached", timeout: 10_000 });
    await expect.poll(() => acknowledged(id), { timeout: 10_000 }).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("renders a template's image, sound at its volume, bundled font, colours and animations, all from the server", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    // Records every sound started (with its volume) and every class/phase change of an alert.
    await page.addInitScript(`
      window.__played = [];
      window.__phases = [];
      const play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function () {
        const entry = { src: this.src.slice(0, 15), volume: this.volume, started: false };
        window.__played.push(entry);
        const result = play.call(this);
        result.then(() => { entry.started = true; }, () => undefined);
        return result;
      };
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of [record.target, ...record.addedNodes]) {
            if (node.classList && node.classList.contains("ovation-alert")) {
              window.__phases.push(node.getAttribute("data-phase") + " " + node.className);
            }
          }
        }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-phase", "class"] });
    `);
    await page.goto(pageUrl);
    await page.waitForSelector(`${root}[data-state="connected"]`, { timeout: 15_000 });

    // Alert media usually lives on another host: a small media server on loopback stands in for it.
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
    const samples = 4000;
    const wav = Buffer.alloc(44 + samples, 128);
    wav.write("RIFF", 0);
    wav.writeUInt32LE(36 + samples, 4);
    wav.write("WAVEfmt ", 8);
    wav.writeUInt32LE(16, 16);
    wav.writeUInt16LE(1, 20);
    wav.writeUInt16LE(1, 22);
    wav.writeUInt32LE(8000, 24);
    wav.writeUInt32LE(8000, 28);
    wav.writeUInt16LE(1, 32);
    wav.writeUInt16LE(8, 34);
    wav.write("data", 36);
    wav.writeUInt32LE(samples, 40);
    const mediaServer = createServer((request, response) => {
      const [type, body] = request.url === "/dot.png" ? ["image/png", png] : request.url === "/tone.wav" ? ["audio/wav", wav] : ["text/plain", Buffer.from("not found")];
      response.writeHead(body === png || body === wav ? 200 : 404, { "content-type": type, "content-length": body.length }).end(body);
    });
    await new Promise<void>((resolve) => mediaServer.listen(0, "127.0.0.1", resolve));
    const mediaBase = `http://127.0.0.1:${(mediaServer.address() as AddressInfo).port}`;
    const id = await trigger({
      template: {
        layout: "image-left",
        image_href: `${mediaBase}/dot.png`,
        sound_href: `${mediaBase}/tone.wav`,
        volume: 40,
        title: "{{name}} joined the crew",
        font_family: "Roboto",
        font_size: 1.5,
        font_color: "#00ff00",
        font_highlight_color: "#ff0000",
        font_animation: "wave",
        animation_alert_enter: "zoomIn",
        animation_alert_leave: "fadeOutUp",
        display_time: 2500,
      },
      data: { name: "Dana" },
    });
    const shown = page.locator(`.ovation-alert[data-notification-id="${id}"]`);
    await shown.waitFor({ state: "visible", timeout: 10_000 });
    expect(await shown.getAttribute("data-image")).toBe("loaded");
    const selector = `.ovation-alert[data-notification-id="${id}"]`;
    const inAlert = <T>(expression: string) => page.evaluate<T>(`(() => { const alert = document.querySelector('${selector}'); return ${expression}; })()`);
    expect(await inAlert("alert.querySelector('img.ovation-image').naturalWidth")).toBe(1);
    expect(await inAlert("alert.classList.contains('ovation-layout-image-left')")).toBe(true);
    const title = shown.locator(".ovation-title");
    expect(await title.textContent()).toBe("Dana joined the crew");
    expect(await shown.locator(".ovation-title.ovation-font-wave").count()).toBe(1);
    expect(await title.locator(".ovation-letter").count()).toBe("Dana joined the crew".length);
    expect(await inAlert("[alert.querySelector('.ovation-title .ovation-highlight').textContent, getComputedStyle(alert.querySelector('.ovation-title .ovation-highlight')).color]")).toEqual(["Dana", "rgb(255, 0, 0)"]);
    expect(await inAlert("[getComputedStyle(alert.querySelector('.ovation-title')).color, getComputedStyle(alert.querySelector('.ovation-title')).fontSize]")).toEqual(["rgb(0, 255, 0)", "54px"]);
    await expect
      .poll(() => page.evaluate(`[...document.fonts].some((face) => face.family.replace(/"/g, "") === "Roboto" && face.weight === "700" && face.status === "loaded")`), { timeout: 10_000 })
      .toBe(true);
    await expect.poll(() => page.evaluate("window.__played"), { timeout: 10_000 }).toEqual([{ src: mediaBase.slice(0, 15), volume: 0.4, started: true }]);
    await shown.waitFor({ state: "detached", timeout: 10_000 });
    const phases = await page.evaluate<string[]>("window.__phases");
    expect(phases.some((p) => p.startsWith("entering") && p.includes("ovation-enter-zoom-in"))).toBe(true);
    expect(phases.some((p) => p.startsWith("leaving") && p.includes("ovation-leave-fade-out-up"))).toBe(true);
    const fontRequests = requests.filter((url) => /\.woff2?(\?|$)/.test(url));
    expect(fontRequests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => !url.startsWith(`${base}/`) && !url.startsWith(`${mediaBase}/`) && !url.startsWith(`ws://127.0.0.1:${port}/`))).toEqual([]);
    await page.close();
    await new Promise<void>((resolve) => mediaServer.close(() => resolve()));
  });

  it("shows a hostile viewer name as text, never as markup", async () => {
    const { page, dialogs } = await openPage();
    const name = "<img src=x onerror=alert(1)>";
    const id = await trigger({ template: "follow", data: { name } });
    const shown = page.locator(`.ovation-alert[data-notification-id="${id}"]`);
    await shown.waitFor({ state: "visible", timeout: 10_000 });
    expect(await shown.locator(".ovation-title").textContent()).toBe(`${name} is now following`);
    expect(await shown.locator(".ovation-text img").count()).toBe(0);
    await shown.waitFor({ state: "detached", timeout: 10_000 });
    await expect.poll(() => acknowledged(id), { timeout: 10_000 }).toBe(true);
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it("plays alerts whose image and sound are broken or stall without them, and the next ones follow", async () => {
    const { page } = await openPage();
    const custom = (image: string, sound: string, name: string) => ({
      template: { image_href: image, sound_href: sound, volume: 50, title: "{{name}} tipped", display_time: 1000 },
      data: { name },
    });
    const broken = await trigger(custom(`${base}/no-such-image.png`, `${base}/no-such-sound.mp3`, "Broken"));
    const stalling = await trigger(custom(`${stallUrl}/image.png`, `${stallUrl}/sound.mp3`, "Stalling"));
    const next = await trigger({ template: "follow", data: { name: "Next" } });
    for (const [id, title] of [[broken, "Broken tipped"], [stalling, "Stalling tipped"], [next, "Next is now following"]] as const) {
      const shown = page.locator(`.ovation-alert[data-notification-id="${id}"]`);
      await shown.waitFor({ state: "visible", timeout: 15_000 });
      expect(await shown.getAttribute("data-image")).toBe("none");
      expect(await shown.locator(".ovation-title").textContent()).toBe(title);
      await shown.waitFor({ state: "detached", timeout: 10_000 });
      await expect.poll(() => acknowledged(id), { timeout: 10_000 }).toBe(true);
    }
    await page.close();
  });

  it("follows queue control from the API: pause, resume, skip, clear, replay", async () => {
    const { page } = await openPage();
    const long = (name: string) => ({ template: { title: "{{name}}", display_time: 60_000 }, data: { name } });
    expect((await api("POST", "/v1/alerts/queue/pause")).status).toBe(200);
    await page.waitForSelector(`${root}[data-queue="paused"]`, { timeout: 10_000 });
    const first = await trigger(long("First"));
    const second = await trigger(long("Second"));
    await page.waitForSelector(`${root}[data-pending="2"]`, { timeout: 10_000 });
    expect(await page.locator(".ovation-alert").count()).toBe(0);
    expect((await api("POST", "/v1/alerts/queue/resume")).status).toBe(200);
    await page.locator(`.ovation-alert[data-notification-id="${first}"]`).waitFor({ timeout: 10_000 });
    expect((await api("POST", "/v1/alerts/queue/skip")).status).toBe(200);
    await page.locator(`.ovation-alert[data-notification-id="${second}"]`).waitFor({ timeout: 10_000 });
    expect((await api("POST", "/v1/alerts/queue/clear")).status).toBe(200);
    await page.waitForSelector(`${root}[data-queue="idle"][data-pending="0"]`, { timeout: 10_000 });
    expect(await page.locator(".ovation-alert").count()).toBe(0);
    expect((await api("POST", "/v1/alerts/queue/replay", { notification_id: first })).status).toBe(200);
    const replayed = page.locator(`.ovation-alert[data-notification-id="${first}"]`);
    await replayed.waitFor({ timeout: 10_000 });
    expect(await replayed.locator(".ovation-title").textContent()).toBe("First");
    expect((await api("POST", "/v1/alerts/queue/skip")).status).toBe(200);
    await replayed.waitFor({ state: "detached", timeout: 10_000 });
    await page.close();
  });

  it("runs a variant 3 template in a sandboxed frame with its fields filled", async () => {
    const { page } = await openPage();
    const id = await trigger({
      template: {
        user_defaults: true,
        html: "<div id='out'>{key}</div>",
        css: "#out{color:{color};font:48px sans-serif}",
        js: "document.body.dataset.ran = 'yes'; try { parent.document.title = 'pwned'; } catch (e) { document.body.dataset.blocked = 'yes'; }",
        fields: { key: "{{message}}", color: "#ff0000" },
      },
      data: { message: "Hello <b>World</b>" },
    });
    const frame = page.locator(`.ovation-alert[data-notification-id="${id}"] iframe`);
    await frame.waitFor({ timeout: 10_000 });
    expect(await frame.getAttribute("sandbox")).toBe("allow-scripts");
    const inner = frame.contentFrame();
    await inner.locator("body[data-ran='yes']").waitFor({ timeout: 10_000 });
    expect(await inner.locator("#out").textContent()).toBe("Hello <b>World</b>");
    expect(await inner.locator("body").getAttribute("data-blocked")).toBe("yes");
    await frame.waitFor({ state: "detached", timeout: 10_000 });
    await expect.poll(() => acknowledged(id), { timeout: 10_000 }).toBe(true);
    await page.close();
  });

  it("reloads its alert set on browser-source-updated and plays with the new one", async () => {
    const { page } = await openPage();
    const before = Number(await page.getAttribute(root, "data-config-version"));
    const body = alertSetBody(DISPLAY_MS);
    const defaults = (body.defaults as { type: string; platform: string; default: Record<string, unknown> }[]).map((d) =>
      d.type === "follow" ? { ...d, default: { ...d.default, title: "Welcome aboard, {{name}}!", font_size: 2 } } : d,
    );
    expect((await api("PUT", `/v1/alert-configs/${alertSetId}`, { ...body, defaults })).status).toBe(200);
    await expect.poll(async () => Number(await page.getAttribute(root, "data-config-version")), { timeout: 10_000 }).toBeGreaterThan(before);
    const id = await trigger({ template: "follow", data: { name: "Bob" } });
    const shown = page.locator(`.ovation-alert[data-notification-id="${id}"]`);
    await shown.waitFor({ state: "visible", timeout: 10_000 });
    expect(await shown.locator(".ovation-title").textContent()).toBe("Welcome aboard, Bob!");
    // A stored set's font_size is relative too: 2 × the layout's base size of 36 px.
    expect(await page.evaluate(`getComputedStyle(document.querySelector('.ovation-alert[data-notification-id="${id}"] .ovation-title')).fontSize`)).toBe("72px");
    await shown.waitFor({ state: "detached", timeout: 10_000 });
    await expect.poll(() => acknowledged(id), { timeout: 10_000 }).toBe(true);
    expect((await api("PUT", `/v1/alert-configs/${alertSetId}`, alertSetBody(DISPLAY_MS))).status).toBe(200);
    await page.close();
  });

  it("receives an alert sent while it was closed once it opens again", async () => {
    const id = await trigger({ template: "follow", data: { name: "Offline" } });
    const { page } = await openPage();
    const shown = page.locator(`.ovation-alert[data-notification-id="${id}"]`);
    await shown.waitFor({ state: "visible", timeout: 10_000 });
    expect(await shown.locator(".ovation-title").textContent()).toBe("Offline is now following");
    await shown.waitFor({ state: "detached", timeout: 10_000 });
    await expect.poll(() => acknowledged(id), { timeout: 10_000 }).toBe(true);
    await page.close();
  });

  it("reconnects by itself after a server restart and plays the next alert", async () => {
    const { page } = await openPage();
    await app.close();
    await page.waitForSelector(`${root}[data-state="disconnected"]`, { timeout: 10_000 });
    app = await buildApp({ config });
    await app.listen({ host: "127.0.0.1", port });
    await page.waitForSelector(`${root}[data-state="connected"]`, { timeout: 30_000 });
    const id = await trigger({ template: "follow", data: { name: "Restarted" } });
    const shown = page.locator(`.ovation-alert[data-notification-id="${id}"]`);
    await shown.waitFor({ state: "visible", timeout: 10_000 });
    expect(await shown.locator(".ovation-title").textContent()).toBe("Restarted is now following");
    await shown.waitFor({ state: "detached", timeout: 10_000 });
    await expect.poll(() => acknowledged(id), { timeout: 10_000 }).toBe(true);
    await page.close();
  });

  it("gives the other types their page, joined to the room (overlays.browser.test.ts plays them)", async () => {
    const types = [
      ["effect-alerts", undefined, "canvas.ovation-effects"],
      ["scenes", "12", '#ovation-root[data-parts="0"]'],
      ["goalbars", "7", ".ovation-status"],
    ] as const;
    // The three pages open side by side: each is a source of its own, checked on its own page.
    await Promise.all(
      types.map(async ([type, identifier, drawn]) => {
        const source = await api<{ browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: type, ...(identifier ? { identifier } : {}) });
        expect(source.status).toBeLessThan(300);
        const { page } = await openPage(source.body.browser_source_url);
        await page.waitForSelector(`#ovation-root[data-state="connected"]`, { timeout: 10_000 });
        await page.locator(drawn).waitFor({ state: "attached", timeout: 10_000 });
        // A goalbars page whose goal bar does not exist says so (goal-bar.browser.test.ts covers real goal bars).
        if (type === "goalbars") expect(await page.locator(".ovation-status").textContent()).toMatch(/^Goal bar: there is no goal bar 7$/);
        if (type !== "goalbars") {
          // Nothing readable is drawn on stream: no grey "connected" badge would appear in OBS (issue 26, bug 3).
          expect(await page.locator(".ovation-status").isVisible()).toBe(false);
          expect((await page.locator("body").innerText()).trim()).toBe("");
        }
        await page.close();
      }),
    );
  });

  it("stops when its address is regenerated, and the old address serves a plain error page", async () => {
    const source = await api<{ id: number; browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: "alerts", identifier: String(alertSetId) });
    const { page } = await openPage(source.body.browser_source_url);
    expect((await api("POST", `/v1/browser-source/${source.body.id}/regenerate`)).status).toBeLessThan(300);
    await page.waitForSelector(`${root}[data-state="error"]`, { timeout: 20_000 });
    const response = await page.goto(source.body.browser_source_url);
    expect(response?.status()).toBe(404);
    expect(await page.locator("script").count()).toBe(0);
    await page.close();
  });
});
