import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The server's console test client (the real /console namespace `ovation chat` uses): shared, not copied.
import { TestConsole } from "../../../server/src/commands/__tests__/console-harness.js";
import { buildAssets, startDashboard } from "./harness.js";
import type { DashboardHarness } from "./harness.js";

/**
 * The viewer queue, polls and shoutouts pages (issue 27) in real Chromium against the real server,
 * with console viewers joining and voting live; screenshots under test-results/dashboard/.
 */
describe("dashboard pages of the viewer queue, polls and shoutouts (issue 27)", () => {
  let h: DashboardHarness;
  const heading = (page: Page) => page.locator("main h1.page-title");
  const consoles: TestConsole[] = [];

  beforeAll(async () => {
    buildAssets();
    h = await startDashboard({ platforms: { env: { OVATION_PLUGINS: "console" } } });
  }, 300_000);
  afterAll(async () => {
    for (const c of consoles) c.close();
    await h?.close();
  });

  it("opens the queue, shows viewers joining live, picks the next one", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/queue");
    await expect.poll(() => heading(page).textContent()).toBe("Viewer queue");
    await page.getByRole("button", { name: "Open the queue" }).click();
    await expect.poll(() => page.locator("section[data-open]").getAttribute("data-open"), { timeout: 30_000 }).toBe("true");
    for (const as of ["ann", "ben", "cat"]) {
      const viewer = await TestConsole.open(h.base, { token: h.user.token, as });
      consoles.push(viewer);
      await viewer.say("!join");
      await viewer.heard(`@${as} joined the queue`);
    }
    const waiting = page.getByRole("list", { name: "Waiting viewers" }).locator("[data-entry]");
    await expect.poll(() => waiting.count(), { timeout: 30_000 }).toBe(3);
    await h.screenshot(page, "queue.desktop-light");
    await page.getByRole("button", { name: "Pick next" }).click();
    await page.getByRole("list", { name: "Picked viewers" }).locator('[data-picked="ann"]').waitFor({ timeout: 30_000 });
    expect(await waiting.evaluateAll((items) => items.map((i) => i.getAttribute("data-entry")))).toEqual(["ben", "cat"]);
    await consoles[0]?.heard("Up next: @ann!");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("starts a poll, shows the chat votes, ends it with the winner", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/polls");
    await expect.poll(() => heading(page).textContent()).toBe("Polls");
    await page.getByLabel("Question", { exact: true }).fill("Tea or coffee?");
    await page.getByLabel("Choices, one per line (2 to 10)").fill("Tea\nCoffee");
    await page.getByRole("button", { name: "Start poll" }).click();
    const poll = page.locator('section[data-status="open"]');
    await poll.waitFor({ timeout: 30_000 });
    await consoles[1]?.say("!vote 2");
    await consoles[2]?.say("!vote 2");
    await expect.poll(() => poll.locator('[data-choice="2"]').textContent(), { timeout: 30_000 }).toContain("2 votes · 100%");
    await h.screenshot(page, "polls.desktop-light");
    await page.getByRole("button", { name: "End now" }).click();
    await page.locator('section[data-status="ended"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('section[data-status="ended"] [data-choice="2"] strong').textContent()).toBe("Coffee");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("gives a shoutout from the page and lists it", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/shoutouts");
    await expect.poll(() => heading(page).textContent()).toBe("Shoutouts");
    await page.getByLabel("Platform").fill("ovation");
    await page.getByLabel("Streamer's login").fill("friend");
    await page.getByRole("button", { name: "Shout out" }).click();
    await page.locator('[data-shoutout="friend"]').waitFor({ timeout: 30_000 });
    await consoles[0]?.heard("Go check out friend!");
    await h.screenshot(page, "shoutouts.desktop-light");
    expect(errors).toEqual([]);
    await context.close();
  });
});
