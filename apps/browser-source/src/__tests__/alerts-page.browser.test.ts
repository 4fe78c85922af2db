import path from "node:path";
import { buildDefaultAlertSet } from "@ovation/core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_RESULTS_DIR, buildAssets, launchChromium } from "./chromium.js";
import { FakeService } from "./fake-service.js";
import { notification } from "./notifications.js";

const root = "#ovation-root";
const SHORT = 1500;

let service: FakeService;
let browser: Browser;

beforeAll(async () => {
  buildAssets();
  service = new FakeService();
  const set = buildDefaultAlertSet({ id: 1, user_id: 1 });
  service.alertSet = { ...set, default: { display_time: SHORT } };
  await service.start();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

async function openPage(type = "alerts"): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
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
  await page.goto(service.pageUrl(type));
  await page.waitForSelector(`${root}[data-state="connected"]`, { timeout: 15_000 });
  return { page, dialogs, errors };
}

async function waitForAck(id: string): Promise<void> {
  for (let i = 0; i < 200 && !service.acks.includes(id); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(service.acks).toContain(id);
}

describe("alerts page (against the contract harness)", () => {
  it("shows a stored-template alert with its resolved title, then removes it after display_time and acknowledges it", async () => {
    const { page, errors } = await openPage();
    const alert = notification("follow", { name: "Alice" });
    service.notify(alert);
    const shown = page.locator(`.ovation-alert[data-notification-id="${alert.notification.id}"]`);
    await shown.waitFor({ state: "visible", timeout: 10_000 });
    await expect.poll(() => shown.locator(".ovation-title").textContent()).toBe("Alice is now following");
    expect(await shown.locator(".ovation-highlight").first().textContent()).toBe("Alice");
    await page.waitForSelector(`.ovation-alert[data-phase="showing"]`, { timeout: 10_000 });
    // OBS composites the transparent page over the stream; a dark backdrop stands in for it here.
    await page.evaluate(`document.body.style.background = "#1f2430"`);
    await page.screenshot({ path: path.join(TEST_RESULTS_DIR, "browser-source-alert.png") });
    await shown.waitFor({ state: "detached", timeout: 10_000 });
    await waitForAck(alert.notification.id);
    expect(await page.getAttribute(root, "data-shown")).toBe("1");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows a hostile name as text, never as markup", async () => {
    const { page, dialogs } = await openPage();
    const name = "<img src=x onerror=alert(1)>";
    const alert = notification("follow", { name });
    service.notify(alert);
    const shown = page.locator(`.ovation-alert[data-notification-id="${alert.notification.id}"]`);
    await shown.waitFor({ state: "visible", timeout: 10_000 });
    expect(await shown.locator(".ovation-title").textContent()).toBe(`${name} is now following`);
    expect(await shown.locator(".ovation-text img").count()).toBe(0);
    await shown.waitFor({ state: "detached", timeout: 10_000 });
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it("plays an alert whose image fails or stalls without it, and the next one follows", async () => {
    const { page } = await openPage();
    const template = (image: string) => ({ image_href: image, sound_href: `${service.baseUrl}/media/stall.mp3`, volume: 40, title: "{{name}} tipped", display_time: 1000 });
    const broken = notification("donation", { name: "Broken" }, { template: template(`${service.baseUrl}/media/missing.png`) });
    const stalled = notification("donation", { name: "Stalled" }, { template: template(`${service.baseUrl}/media/stall.png`) });
    const fine = notification("donation", { name: "Fine" }, { template: { ...template(`${service.baseUrl}/media/pixel.png`), sound_href: "" } });
    service.notify(broken);
    service.notify(stalled);
    service.notify(fine);
    for (const [alert, image] of [[broken, "none"], [stalled, "none"], [fine, "loaded"]] as const) {
      const shown = page.locator(`.ovation-alert[data-notification-id="${alert.notification.id}"]`);
      await shown.waitFor({ state: "visible", timeout: 15_000 });
      expect(await shown.getAttribute("data-image")).toBe(image);
      await waitForAck(alert.notification.id);
    }
    await page.close();
  });

  it("honours queue-control pause, resume, skip and clear", async () => {
    const { page } = await openPage();
    const long = (name: string) => notification("donation", { name }, { template: { title: "{{name}}", display_time: 60_000 } });
    service.control({ action: "pause" });
    await page.waitForSelector(`${root}[data-queue="paused"]`);
    const first = long("First");
    const second = long("Second");
    const third = long("Third");
    service.notify(first);
    service.notify(second);
    service.notify(third);
    await page.waitForSelector(`${root}[data-pending="3"]`);
    expect(await page.locator(".ovation-alert").count()).toBe(0);
    service.control({ action: "resume" });
    await page.locator(`.ovation-alert[data-notification-id="${first.notification.id}"]`).waitFor({ timeout: 10_000 });
    service.control({ action: "skip" });
    await page.locator(`.ovation-alert[data-notification-id="${second.notification.id}"]`).waitFor({ timeout: 10_000 });
    await waitForAck(first.notification.id);
    service.control({ action: "clear" });
    await page.waitForSelector(`${root}[data-queue="idle"][data-pending="0"]`);
    expect(await page.locator(".ovation-alert").count()).toBe(0);
    await waitForAck(third.notification.id);
    await page.close();
  });

  it("runs a variant 3 template in a sandboxed frame with its fields filled", async () => {
    const { page } = await openPage();
    const alert = notification(
      "donation",
      { message: "Hello <b>World</b>" },
      {
        template: {
          user_defaults: false,
          html: "<div id='out'>{key}</div>",
          css: "#out{color:{color}}",
          js: "document.body.dataset.ran = 'yes'; try { parent.document.title = 'pwned'; } catch (e) { document.body.dataset.blocked = 'yes'; }",
          fields: { key: "{{message}}", color: "#ff0000" },
        },
      },
    );
    service.notify(alert);
    const frame = page.locator(`.ovation-alert[data-notification-id="${alert.notification.id}"] iframe`);
    await frame.waitFor({ timeout: 10_000 });
    expect(await frame.getAttribute("sandbox")).toBe("allow-scripts");
    const inner = frame.contentFrame();
    await inner.locator("body[data-ran='yes']").waitFor({ timeout: 10_000 });
    expect(await inner.locator("#out").textContent()).toBe("Hello <b>World</b>");
    expect(await inner.locator("body").getAttribute("data-blocked")).toBe("yes");
    expect(await page.title()).not.toBe("pwned");
    await page.close();
  });

  it("reloads its configuration on browser-source-updated", async () => {
    const { page } = await openPage();
    const before = Number(await page.getAttribute(root, "data-config-version"));
    service.updated();
    await page.waitForSelector(`${root}[data-config-version="${before + 1}"]`);
    await page.close();
  });

  it("reconnects and joins again after the server ends its socket, then plays what comes next", async () => {
    const { page } = await openPage();
    const joinsBefore = service.joins.length;
    service.dropAll();
    await page.waitForSelector(`${root}[data-state="disconnected"]`, { timeout: 10_000 });
    await page.waitForSelector(`${root}[data-state="connected"]`, { timeout: 15_000 });
    expect(service.joins.length).toBeGreaterThan(joinsBefore);
    const alert = notification("follow", { name: "Again" });
    service.notify(alert);
    await page.locator(`.ovation-alert[data-notification-id="${alert.notification.id}"]`).waitFor({ timeout: 10_000 });
    await page.close();
  });

  it("stops when its address is revoked instead of reconnecting forever", async () => {
    const { page } = await openPage();
    try {
      service.revoke();
      await page.waitForSelector(`${root}[data-state="error"]`, { timeout: 15_000 });
      expect(await page.getAttribute(root, "data-error")).toBe("this browser source address is no longer valid");
    } finally {
      service.revoked = false;
      await page.close();
    }
  });

  it("gives the other types a minimal page that joins the room and says it is connected", async () => {
    for (const type of ["effect-alerts", "scenes", "goalbars"]) {
      const { page } = await openPage(type);
      expect(await page.locator(".ovation-status").textContent()).toMatch(/: connected$/);
      await page.close();
    }
  });
});
