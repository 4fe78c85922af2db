import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAssets, startDashboard } from "./harness.js";
import type { DashboardHarness } from "./harness.js";

const AE3_FIXTURE = fileURLToPath(new URL("../../../../fixtures/ae3/cheer-tiers.ae3.json", import.meta.url));

/** The preview's title line (inside the preview frame, drawn by the browser-source renderer). */
function previewTitle(page: Page) {
  return page.frameLocator('iframe[title="Alert preview"]').locator(".ovation-title");
}

/**
 * The alert-set flow end to end against the real server: create a set, activate it, add a variation
 * with a condition (builder and raw JsonLogic), watch the preview change, save, send a test alert and
 * see it in an open browser source; import an AE3 set; screenshots of every alert-set page.
 */
describe("dashboard alert sets (issue 18)", () => {
  let h: DashboardHarness;
  let setId = 0;

  beforeAll(async () => {
    buildAssets();
    h = await startDashboard();
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });

  it("creates a set, adds a conditional variation, sees the preview change, saves, and a test alert shows in the browser source", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/alert-sets");
    await page.getByRole("button", { name: "New alert set" }).click();
    await page.getByRole("dialog").getByLabel("Name").fill("Stream alerts");
    await h.screenshot(page, "alert-set-create-dialog.desktop-light");
    await page.getByRole("dialog").getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/dashboard\/alert-sets\/\d+$/);
    setId = Number(/(\d+)$/.exec(page.url())?.[1]);

    // Activate it from the list (browser sources without their own set show the active one).
    await page.getByRole("link", { name: "Alert sets" }).click();
    await page.getByRole("button", { name: "Activate Stream alerts" }).click();
    await page.locator('tr[data-set="Stream alerts"] .badge.active').waitFor();
    const sets = await h.api<{ data: { id: number; active: boolean }[] }>("GET", "/v1/alert-configs");
    expect(sets.body.data.find((s) => s.id === setId)?.active).toBe(true);

    // A browser source open in "OBS".
    const source = await h.api<{ access_token: string }>("POST", "/v1/browser-source/generate", { browser_source_type: "alerts" });
    const obs = await h.browser.newPage({ viewport: { width: 1280, height: 720 } });
    await obs.goto(`${h.base}/browser-source/alerts/${source.body.access_token}`);
    await obs.waitForSelector('#ovation-root[data-state="connected"]', { timeout: 30_000 });

    await page.getByRole("link", { name: "Stream alerts" }).click();
    await page.getByLabel("Alert type").selectOption("cheer");
    await page.getByLabel("Alert data (JSON)").fill('{"name": "Alice", "amount": 500, "message": "hi"}');
    await expect.poll(() => previewTitle(page).textContent(), { timeout: 15_000 }).toBe("Alice cheered 500 Bits");

    await page.getByRole("button", { name: "Add variation" }).click();
    const variation = page.locator("li.item").last();
    await variation.getByLabel("Variation name").fill("Big cheers");
    await variation.getByRole("button", { name: "Add a condition" }).click();
    await variation.getByLabel("Type", { exact: true }).selectOption("cheer");
    await variation.getByRole("button", { name: "Add a condition" }).click();
    await variation.getByLabel("Data key").fill("amount");
    await variation.getByLabel("From").fill("100");
    await variation.getByLabel("To").fill("100000");
    await variation.getByLabel("Title", { exact: true }).fill("BIG CHEER from {{name}}!");
    await expect.poll(() => previewTitle(page).textContent(), { timeout: 15_000 }).toBe("BIG CHEER from Alice!");
    expect(JSON.parse(await variation.getByLabel("JsonLogic").inputValue())).toEqual({
      and: [{ "===": [{ var: "type" }, "cheer"] }, { "<=": [100, { var: "amount" }, 100000] }],
    });

    // Editing the raw JsonLogic updates the builder and the preview (500 is below the new range).
    await variation.getByLabel("JsonLogic").fill(JSON.stringify({ and: [{ "===": [{ var: "type" }, "cheer"] }, { "<=": [1000, { var: "amount" }, 100000] }] }));
    await expect.poll(() => variation.getByLabel("From").inputValue()).toBe("1000");
    await expect.poll(() => previewTitle(page).textContent()).toBe("Alice cheered 500 Bits");
    await variation.getByLabel("From").fill("100");
    await expect.poll(() => previewTitle(page).textContent()).toBe("BIG CHEER from Alice!");

    // An image uploaded from a file becomes a URL on this host (POST /v1/media).
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
    await variation.locator('input[type="file"]').first().setInputFiles({ name: "cheer.png", mimeType: "image/png", buffer: png });
    await expect.poll(() => variation.getByLabel("Image URL").inputValue()).toMatch(new RegExp(`^${h.base}/media/[0-9]+/[0-9a-f]{64}\\.png$`));

    // An invalid value is reported at its field before saving.
    await variation.getByLabel("Colour", { exact: true }).fill("red");
    await expect.poll(() => variation.locator(".field-invalid .field-error").first().textContent()).toContain("#rrggbb");
    await variation.getByLabel("Colour", { exact: true }).fill("#ffcc00");

    // The effect-alerts source's effect for these alerts, sized by the amount (issue 32).
    await variation.getByLabel("Full-screen effect (effect-alerts source)").selectOption("confetti");
    await variation.getByLabel("Pieces per unit of amount (bits, gifts, viewers)").fill("0.5");
    await variation.getByLabel("Full-screen effect (effect-alerts source)").evaluate((el) => el.scrollIntoView({ block: "center" }));
    await h.screenshot(page, "alert-set-effect");

    const titleRow = page.getByTestId("explain").locator('tr[data-field="title"]');
    await expect.poll(() => titleRow.textContent()).toContain("variation “Big cheers”");
    await h.screenshot(page, "alert-set-editor.flow");

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.locator(".toast", { hasText: "Alert set saved." }).waitFor();
    const stored = await h.api<{ variations: { name: string; overrides: Record<string, unknown> }[] }>("GET", `/v1/alert-configs/${setId}`);
    expect(stored.body.variations.at(-1)).toMatchObject({
      name: "Big cheers",
      overrides: { title: "BIG CHEER from {{name}}!", font_color: "#ffcc00", image_href: expect.stringContaining("/media/") },
      effect: { effect: "confetti", per_amount: 0.5 },
    });

    // The tabs answer the arrow keys.
    await page.getByRole("tab", { name: /Variations/ }).focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.getByRole("tab", { name: "Set default" }).getAttribute("aria-selected")).toBe("true");

    await page.getByRole("button", { name: "Send test alert" }).click();
    await page.locator(".toast", { hasText: "Test cheer alert sent" }).waitFor();
    await expect.poll(() => obs.locator(".ovation-title").first().textContent(), { timeout: 30_000 }).toBe("BIG CHEER from Alice!");
    await obs.close();
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it("duplicates a set and imports an AE3 set through the migration endpoint", async () => {
    const { context, page } = await h.open();
    await h.signIn(page, "/alert-sets");
    await page.getByRole("button", { name: "Duplicate Stream alerts" }).click();
    await page.locator('tr[data-set="Stream alerts (copy)"]').waitFor();

    await page.getByRole("button", { name: "Import AE3" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("AE3 document (JSON)").fill("{not json");
    await dialog.getByRole("button", { name: "Import" }).click();
    await dialog.getByText("Not valid JSON").waitFor();
    await h.screenshot(page, "alert-set-import-dialog.desktop-light");
    await dialog.getByLabel("AE3 document (JSON)").fill(readFileSync(AE3_FIXTURE, "utf8"));
    await dialog.getByRole("button", { name: "Import" }).click();
    await page.waitForURL(/\/dashboard\/alert-sets\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())?.[1]);
    const migrated = await h.api<{ version: number; active: boolean; variations: unknown[] }>("GET", `/v1/alert-configs/${id}`);
    expect(migrated.body.version).toBe(4);
    expect(migrated.body.active).toBe(false);
    expect(migrated.body.variations.length).toBeGreaterThan(1);
    await page.getByRole("tab", { name: /Variations/ }).waitFor();
    await context.close();
  }, 120_000);

  it("photographs the alert-set pages in light, dark, desktop and phone", async () => {
    const { context, page, errors } = await h.open();
    for await (const view of h.eachView(page, "/alert-sets")) {
      await page.locator('tr[data-set="Stream alerts"]').waitFor();
      await h.screenshot(page, `alert-sets.${view.name}`);
      await page.goto(`${h.dashboard}/alert-sets/${setId}`);
      await page.getByRole("tab", { name: /Variations/ }).waitFor();
      await page.locator("li.item").last().locator(".item-toggle").click();
      await h.screenshot(page, `alert-set-variations.${view.name}`);
      await page.getByRole("tab", { name: "Set default" }).click();
      await h.screenshot(page, `alert-set-default.${view.name}`);
      await page.getByRole("tab", { name: /Type defaults/ }).click();
      await page.locator("li.item").first().locator(".item-toggle").click();
      await h.screenshot(page, `alert-set-types.${view.name}`);
      expect(errors, view.name).toEqual([]);
    }
    await context.close();
  }, 300_000);
});
