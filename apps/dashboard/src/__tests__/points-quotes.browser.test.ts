import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The server's console test client (the real /console namespace `ovation chat` uses): shared, not copied.
import { TestConsole } from "../../../server/src/commands/__tests__/console-harness.js";
import { buildAssets, startDashboard } from "./harness.js";
import type { DashboardHarness } from "./harness.js";

/**
 * The points and quotes pages of issue 27 in real Chromium against the real server: the leaderboard
 * searched and adjusted, the settings saved, a CSV with a bad line refused line by line; a quote
 * added in chat shown, one added, edited and deleted on the page. Screenshots under
 * test-results/dashboard/.
 */
describe("dashboard points and quotes pages (issue 27)", () => {
  let h: DashboardHarness;
  const heading = (page: Page) => page.locator("main h1.page-title");

  beforeAll(async () => {
    buildAssets();
    h = await startDashboard({ platforms: { env: { OVATION_PLUGINS: "console" } } });
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  it("searches the leaderboard, adjusts a viewer, saves the settings and lists a refused CSV's lines", async () => {
    const seeded = await h.api("POST", "/v1/bots/@me/points/import", { csv: "viewer,name,platform,points\ntwitch:1,Alice,twitch,100\nkick:2,Bob,kick,40\n" });
    expect(seeded.status).toBe(200);
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/points");
    await expect.poll(() => heading(page).textContent()).toBe("Points");
    const rows = page.locator("tr[data-viewer]");
    await rows.first().waitFor({ timeout: 30_000 });
    expect(await rows.locator("th").allTextContents()).toEqual(["Alice", "Bob"]);
    await page.getByLabel("Search viewers").fill("bo");
    await expect.poll(() => rows.locator("th").allTextContents()).toEqual(["Bob"]);
    await page.getByLabel("Search viewers").fill("");

    await page.getByRole("button", { name: "Adjust Alice" }).click();
    expect(await page.getByLabel("Viewer", { exact: true }).inputValue()).toBe("twitch:1");
    await page.getByLabel("Amount (negative takes)").fill("-30");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.locator(".toast-success").filter({ hasText: "Alice now has 70 points." }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('tr[data-viewer="twitch:1"] .points-balance').textContent()).toBe("70");
    await page.locator("li", { hasText: "remove: -30 points · Alice · by api" }).waitFor({ timeout: 30_000 });

    await page.getByLabel("Currency name").fill("cookies");
    await page.getByLabel("Per minute watched").fill("3");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.locator(".toast-success").filter({ hasText: "Saved the points settings." }).waitFor({ timeout: 30_000 });
    expect((await h.api("GET", "/v1/bots/@me/points/settings")).body).toMatchObject({ currency: "cookies", per_minute: 3 });
    await h.dismissToasts(page);

    await page.getByLabel("CSV file").setInputFiles({ name: "points.csv", mimeType: "text/csv", buffer: Buffer.from("viewer,points\ntwitch:1,many\nkick:2,5\n") });
    await page.getByRole("button", { name: "Import CSV" }).click();
    const refused = page.locator("[data-csv-errors]");
    await refused.waitFor({ timeout: 30_000 });
    expect(await refused.textContent()).toContain('line 2: points "many" must be a whole number');
    expect((await h.api<{ points: number }>("GET", "/v1/bots/@me/points/viewers/kick:2")).body.points).toBe(40);
    const other = await h.open();
    for await (const view of h.eachView(other.page, "/points")) {
      await other.page.locator("tr[data-viewer]").first().waitFor({ timeout: 30_000 });
      await h.screenshot(other.page, `points.${view.name}`);
      expect(other.errors, view.name).toEqual([]);
    }
    await other.context.close();
    expect(errors.filter((e) => !e.includes("422"))).toEqual([]);
    await context.close();
  }, 240_000);

  it("shows a quote added in chat, and adds, edits and deletes one on the page", async () => {
    const owner = await TestConsole.open(h.base, { token: h.user.token });
    try {
      await owner.say("!quote add What a jump");
      await owner.heard("Quote #1 added.");
    } finally {
      owner.close();
    }
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/quotes");
    await expect.poll(() => heading(page).textContent()).toBe("Quotes");
    const first = page.locator('li[data-quote="1"]');
    await first.waitFor({ timeout: 30_000 });
    expect(await first.locator("blockquote").textContent()).toBe("What a jump");

    const form = page.locator("form", { has: page.getByRole("heading", { name: "New quote" }) });
    await form.getByLabel("Quote", { exact: true }).fill("I meant to do that");
    await form.getByLabel("Game or category").fill("Celeste");
    await form.getByRole("button", { name: "Add quote" }).click();
    const second = page.locator('li[data-quote="2"]');
    await second.waitFor({ timeout: 30_000 });
    expect(await second.locator(".cell-sub").textContent()).toBe("Celeste");

    await page.getByRole("button", { name: "Edit quote #2" }).click();
    await second.getByLabel("Quote", { exact: true }).fill("I totally meant to do that");
    await second.getByLabel("Stream title").fill("Chapter 7");
    await second.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => second.locator("blockquote").textContent()).toBe("I totally meant to do that");
    expect(await second.locator(".cell-sub").textContent()).toBe("Celeste · Chapter 7");
    await h.screenshot(page, "quotes.desktop-light");

    await page.getByRole("button", { name: "Delete quote #1" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await first.waitFor({ state: "detached", timeout: 30_000 });
    const listed = await h.api<{ data: { id: number; text: string; title: string | null }[] }>("GET", "/v1/bots/@me/quotes");
    expect(listed.body.data).toEqual([expect.objectContaining({ id: 2, text: "I totally meant to do that", title: "Chapter 7" })]);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
