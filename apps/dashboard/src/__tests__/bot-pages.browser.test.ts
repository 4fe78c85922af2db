import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The server's console test client (the real /console namespace `ovation chat` uses): shared, not copied.
import { TestConsole } from "../../../server/src/commands/__tests__/console-harness.js";
import { VIEWS, buildAssets, startDashboard } from "./harness.js";
import type { DashboardHarness } from "./harness.js";

/**
 * The bot pages of issue 26 in real Chromium against the real server: a goal bar created on its page,
 * placed in a browser source picked by its title and moved by a simulated subscription; a timer
 * created on its page that posts in the console after a simulated go-live. Screenshots of each page
 * in light, dark and on a phone under test-results/dashboard/.
 */
describe("dashboard bot pages and the event simulator (issue 26)", () => {
  let h: DashboardHarness;
  let clock = Date.now();
  const heading = (page: Page) => page.locator("main h1.page-title");

  async function shot(page: Page, name: string): Promise<void> {
    await page.evaluate(() => window.scrollTo(0, 0));
    await h.screenshot(page, name);
  }

  /** Sends an event from the simulator page. */
  async function simulate(page: Page, platform: string, event: string, who?: string): Promise<void> {
    await page.getByRole("link", { name: "Simulator" }).first().click();
    await expect.poll(() => heading(page).textContent()).toBe("Event simulator");
    await page.getByLabel("Platform", { exact: true }).selectOption(platform);
    await page.getByLabel("Event", { exact: true }).selectOption(event);
    if (who !== undefined) await page.getByLabel("Who (optional)").fill(who);
    await h.dismissToasts(page);
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".toast-success").filter({ hasText: "Simulated" }).last().waitFor({ timeout: 30_000 });
  }

  beforeAll(async () => {
    buildAssets();
    h = await startDashboard({ platforms: { env: { OVATION_PLUGINS: "console" } }, botModules: { now: () => clock } });
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  it("creates a goal bar, places it in a browser source picked by title, and a simulated sub moves it on stream", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/goal-bars");
    await expect.poll(() => heading(page).textContent()).toBe("Goal bars");
    await page.getByLabel("Title").fill("Road to 10 subs");
    await page.getByLabel("Counts").selectOption("subscribers");
    await page.getByLabel("Target").fill("10");
    await page.getByRole("button", { name: "Create goal bar" }).click();
    const card = page.locator("li[data-goal]").filter({ hasText: "Road to 10 subs" });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator(".goal-progress").textContent()).toBe("0 / 10 (0 %)");

    await page.getByRole("link", { name: "Browser sources" }).first().click();
    const form = page.locator("form", { has: page.getByRole("heading", { name: "New browser source" }) });
    await form.getByLabel("Type").selectOption("goalbars");
    await form.getByLabel("Goal bar").selectOption({ label: "Road to 10 subs" });
    await shot(page, "browser-source-goal-picker.desktop-light");
    await form.getByRole("button", { name: "Create" }).click();
    const source = page.locator('li.source-card[data-type="goalbars"]');
    await source.waitFor({ timeout: 30_000 });
    expect(await source.locator("h2, h3").first().textContent()).toContain('Goal bar "Road to 10 subs"');
    const url = (await source.locator("input.source-url").getAttribute("data-url")) ?? "";
    const obs = await h.browser.newPage({ viewport: { width: 960, height: 200 } });
    await obs.goto(url);
    await expect.poll(() => obs.locator(".ovation-goal-label").textContent(), { timeout: 30_000 }).toBe("0 / 10 (0 %)");

    await simulate(page, "twitch", "subscribe", "Sam");
    await expect.poll(() => obs.locator(".ovation-goal-label").textContent(), { timeout: 30_000 }).toBe("1 / 10 (10 %)");
    await shot(page, "simulator.desktop-light");
    await page.getByRole("link", { name: "Alert log" }).first().click();
    const row = page.locator("tbody tr").filter({ hasText: "Sam" }).first();
    await row.waitFor({ timeout: 30_000 });
    expect(await row.locator(".badge").allTextContents()).toContain("simulated");

    await page.getByRole("link", { name: "Goal bars" }).first().click();
    await expect.poll(() => card.locator(".goal-progress").textContent(), { timeout: 30_000 }).toBe("1 / 10 (10 %)");
    await shot(page, "goal-bars.desktop-light");
    await obs.close();
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it("creates a timer that waits while offline and posts in the console after a simulated go-live", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/timers");
    await expect.poll(() => heading(page).textContent()).toBe("Timers");
    const form = page.locator("form", { has: page.getByRole("heading", { name: "New timer" }) });
    await form.getByLabel("Name").fill("socials");
    await form.getByLabel("Every (minutes)").fill("5");
    await form.getByLabel("Chat lines needed in between").fill("1");
    await form.getByLabel("Message").fill("Follow {{ event.channel.username }} everywhere!");
    await form.getByRole("button", { name: "Create timer" }).click();
    const card = page.locator('li[data-timer="socials"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator(".timer-next").textContent()).toBe("Waits for the stream to go live");
    expect(await page.locator("[data-live]").getAttribute("data-live")).toBe("false");

    const viewer = await TestConsole.open(h.base, { token: h.user.token, as: "viewer1" });
    try {
      await viewer.say("hello chat");
      clock += 6 * 60_000;
      await h.app.ovation.botModules.tick();
      expect(viewer.said).toEqual([]); // offline: nothing posts

      await simulate(page, "kick", "stream.online");
      await page.getByRole("link", { name: "Timers" }).first().click();
      await expect.poll(() => page.locator("[data-live]").getAttribute("data-live"), { timeout: 30_000 }).toBe("true");
      expect(await card.locator(".timer-next").textContent()).toMatch(/^ovation: (now|in \d+ min)$/);
      const other = await h.open();
      for await (const view of h.eachView(other.page, "/timers")) {
        await other.page.locator('li[data-timer="socials"]').waitFor({ timeout: 30_000 });
        await shot(other.page, `timers.${view.name}`);
        expect(other.errors, view.name).toEqual([]);
      }
      await other.context.close();
      await h.app.ovation.botModules.tick();
      expect((await viewer.heard("everywhere!")).text).toBe("Follow streamer everywhere!");
    } finally {
      viewer.close();
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);

  it("runs a giveaway from opening to a winner with three console viewers entering live, then rerolls", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/giveaways");
    await expect.poll(() => heading(page).textContent()).toBe("Giveaways");
    await page.getByLabel("Keyword").fill("!join");
    await page.getByLabel("Title (optional)").fill("Game key");
    await page.getByRole("button", { name: "Open giveaway" }).click();
    const giveaway = page.locator("section.giveaway");
    await expect.poll(() => giveaway.getAttribute("data-status"), { timeout: 30_000 }).toBe("open");

    const viewers = await Promise.all(["ann", "ben", "cat"].map((as) => TestConsole.open(h.base, { token: h.user.token, as })));
    try {
      for (const viewer of viewers) await viewer.say("!join");
      // No reload: the entries arrive on the open page.
      await expect.poll(() => giveaway.locator("[data-entry]").count(), { timeout: 30_000 }).toBe(3);
      expect((await giveaway.locator("[data-entry]").evaluateAll((items) => items.map((i) => i.getAttribute("data-entry")))).sort()).toEqual(["ann", "ben", "cat"]);
      const other = await h.open();
      for await (const view of h.eachView(other.page, "/giveaways")) {
        await other.page.locator("section.giveaway [data-entry]").first().waitFor({ timeout: 30_000 });
        await shot(other.page, `giveaways.${view.name}`);
        expect(other.errors, view.name).toEqual([]);
      }
      await other.context.close();
      await page.getByRole("button", { name: "Close entries" }).click();
      await expect.poll(() => giveaway.getAttribute("data-status"), { timeout: 30_000 }).toBe("closed");
      await page.getByRole("button", { name: "Draw", exact: true }).click();
      const winner = giveaway.locator('[data-winner][data-rerolled="false"]');
      await winner.waitFor({ timeout: 30_000 });
      const first = (await winner.getAttribute("data-winner")) ?? "";
      expect(["ann", "ben", "cat"]).toContain(first);
      await viewers[0]?.heard(first);
      await page.getByRole("button", { name: `Reroll ${first}` }).click();
      await expect.poll(() => giveaway.locator(`[data-winner="${first}"]`).getAttribute("data-rerolled"), { timeout: 30_000 }).toBe("true");
      const second = (await giveaway.locator('[data-winner][data-rerolled="false"]').getAttribute("data-winner")) ?? "";
      expect(["ann", "ben", "cat"].filter((n) => n !== first)).toContain(second);
      await shot(page, "giveaway-winner.desktop-light");
      const api = (await h.api<{ data: { winners: { username: string; rerolled: boolean }[] } }>("GET", "/v1/bots/@me/giveaways")).body.data;
      expect(api.winners.map((w) => [w.username, w.rerolled])).toEqual([
        [first, true],
        [second, false],
      ]);
    } finally {
      for (const viewer of viewers) viewer?.close();
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);

  it("auto-moderation: the rules with their exemptions, and a message tested against them shows which rule fires", async () => {
    const put = await h.api("PUT", "/v1/bots/@me/moderation", {
      caps: { enabled: true, min_length: 8, max_percent: 60, action: { type: "timeout", seconds: 30 }, exempt: ["broadcaster", "moderator"] },
      links: { enabled: true, allowed_domains: ["example.com"], action: { type: "delete" }, exempt: ["broadcaster"] },
    });
    expect(put.status).toBe(200);
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/moderation");
    await expect.poll(() => heading(page).textContent()).toBe("Auto-moderation");
    const caps = page.locator('tr[data-rule="caps"]');
    await caps.waitFor({ timeout: 30_000 });
    expect(await page.getByLabel("Capital letters action").inputValue()).toBe("timeout");
    expect(await caps.locator(".cell-sub").textContent()).toBe("30 s");
    expect(await page.getByLabel("Capital letters: broadcaster exempt").isChecked()).toBe(true);
    expect(await page.getByLabel("Capital letters: moderator exempt").isChecked()).toBe(true);
    expect(await page.getByLabel("Capital letters: vip exempt").isChecked()).toBe(false);
    await page.getByLabel("Chat message").fill("THIS IS ALL SHOUTING");
    await page.getByRole("button", { name: "Test", exact: true }).click();
    await expect.poll(() => page.locator("output.moderation-verdict").getAttribute("data-rule"), { timeout: 30_000 }).toBe("caps");
    expect(await page.locator("output.moderation-verdict").textContent()).toMatch(/^Capital letters fires \(.+\): timeout 30 s\.$/);
    await shot(page, "moderation-test.desktop-light");
    // A moderator is exempt from the caps rule.
    await page.locator("form", { has: page.getByRole("heading", { name: "Test a message" }) }).getByLabel("moderator", { exact: true }).check();
    await page.getByRole("button", { name: "Test", exact: true }).click();
    await expect.poll(() => page.locator("output.moderation-verdict").getAttribute("data-rule"), { timeout: 30_000 }).toBe("none");
    const other = await h.open();
    for await (const view of h.eachView(other.page, "/moderation", VIEWS.filter((v) => v.name !== "desktop-light"))) {
      await other.page.locator('tr[data-rule="caps"]').waitFor({ timeout: 30_000 });
      await shot(other.page, `moderation.${view.name}`);
      expect(other.errors, view.name).toEqual([]);
    }
    await other.context.close();
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
