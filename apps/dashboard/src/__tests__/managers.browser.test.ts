import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VIEWS, buildAssets, startDashboard } from "./harness.js";
import type { DashboardAccount, DashboardHarness } from "./harness.js";

/**
 * Managers in real Chromium against the real server (issue 26): the streamer adds an editor and a
 * moderator on the Managers page; the editor, signed in as themself, switches to the streamer's
 * channel, creates a command there and is refused on the streamer's security page; the moderator is
 * refused on commands and opens a giveaway; the streamer reads who did what in the audit log.
 * Screenshots in light, dark and on a phone under test-results/dashboard/.
 */
describe("dashboard managers (issue 26)", () => {
  let h: DashboardHarness;
  let eddie: DashboardAccount;
  let mona: DashboardAccount;
  const heading = (page: Page) => page.locator("main h1.page-title");

  async function shot(page: Page, name: string): Promise<void> {
    await page.evaluate(() => window.scrollTo(0, 0));
    await h.screenshot(page, name);
  }

  beforeAll(async () => {
    buildAssets();
    h = await startDashboard();
    eddie = await h.addAccount("eddie");
    mona = await h.addAccount("mona");
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  it("the streamer adds an editor and a moderator; a bad name is named on the form", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/managers");
    await expect.poll(() => heading(page).textContent()).toBe("Managers");
    await page.getByLabel("Account name").fill("nobody");
    await page.getByRole("button", { name: "Add manager" }).click();
    await page.getByText("names no account").waitFor({ timeout: 30_000 });
    await page.getByLabel("Account name").fill("eddie");
    await page.getByRole("button", { name: "Add manager" }).click();
    await page.locator('tr[data-manager="eddie"]').waitFor({ timeout: 30_000 });
    await page.getByLabel("Account name").fill("mona");
    await page.getByLabel("Role", { exact: true }).selectOption("moderator");
    await page.getByRole("button", { name: "Add manager" }).click();
    await page.locator('tr[data-manager="mona"]').waitFor({ timeout: 30_000 });
    expect(await page.getByLabel("Role of mona").inputValue()).toBe("moderator");
    const managers = (await h.api<{ data: Array<{ name: string; role: string }> }>("GET", "/v1/managers")).body.data;
    expect(managers.map((m) => `${m.name}:${m.role}`)).toEqual(["eddie:editor", "mona:moderator"]);
    expect(errors.filter((e) => !e.includes("422"))).toEqual([]);
    await context.close();
  }, 240_000);

  it("an editor switches to the streamer's channel, creates a command there, and is refused on the streamer's security page", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/commands", eddie);
    await h.switchChannel(page, "streamer (editor)");
    // The navigation lists only what the role covers: the alert pages and commands, no bot module.
    const nav = await page.locator("nav#primary-nav a.nav-link").allTextContents();
    expect(nav).toEqual(["Alert sets", "Browser sources", "Overlays", "Goal bars", "Alert log", "Simulator", "Commands"]);
    await page.getByRole("link", { name: "New command" }).first().click();
    await expect.poll(() => heading(page).textContent()).toBe("New command");
    await page.getByLabel("Name", { exact: true }).fill("discord");
    await page.getByLabel("Response").fill("Join streamer's Discord!");
    await page.getByRole("button", { name: "Create command" }).click();
    await expect.poll(() => heading(page).textContent(), { timeout: 30_000 }).toBe("Edit command");
    const streamerCommands = (await h.api<{ data: Array<{ command: string }> }>("GET", "/v1/bots/@me/commands")).body.data;
    expect(streamerCommands.map((c) => c.command)).toEqual(["discord"]);
    expect(h.app.ovation.repos.commands.listForUser(eddie.id)).toEqual([]);

    await page.goto(`${h.dashboard}/security`);
    await page.getByTestId("managed-refusal").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("managed-refusal").textContent()).toContain("not part of what you manage on streamer's channel");
    expect(await page.locator("main form, main input").count()).toBe(0);
    await shot(page, "managers-refused-security.desktop-light");
    // Back on their own channel, the page is theirs again.
    await page.getByRole("button", { name: "Back to your channel" }).click();
    await expect.poll(() => page.getByTestId("managed-refusal").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);

  it("a moderator is refused on the streamer's commands and opens a giveaway on the streamer's channel", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/giveaways", mona);
    await h.switchChannel(page, "streamer (moderator)");
    const nav = await page.locator("nav#primary-nav a.nav-link").allTextContents();
    expect(nav).toEqual(expect.arrayContaining(["Giveaways", "Timers", "Auto-moderation", "Counters"]));
    expect(nav).not.toContain("Commands");
    await page.goto(`${h.dashboard}/commands`);
    await page.getByTestId("managed-refusal").waitFor({ timeout: 30_000 });
    await shot(page, "managers-refused-commands.desktop-light");

    await page.getByRole("link", { name: "Giveaways" }).first().click();
    await expect.poll(() => heading(page).textContent()).toBe("Giveaways");
    await page.getByLabel("Keyword").fill("!join");
    await page.getByRole("button", { name: "Open giveaway" }).click();
    await expect.poll(() => page.locator("section.giveaway").getAttribute("data-status"), { timeout: 30_000 }).toBe("open");
    const current = (await h.api<{ data: { status: string } | null }>("GET", "/v1/bots/@me/giveaways")).body.data;
    expect(current).toMatchObject({ status: "open" });
    expect(JSON.stringify(current)).toContain("!join");
    await shot(page, "managers-moderator-giveaways.desktop-light");

    // Rules are edited on the page: the moderator turns the links rule on and makes it a timeout.
    await page.getByRole("link", { name: "Auto-moderation" }).first().click();
    await expect.poll(() => heading(page).textContent()).toBe("Auto-moderation");
    await page.getByLabel("Links on").check();
    await expect.poll(async () => (await h.api<{ settings: { links: { enabled: boolean } } }>("GET", "/v1/bots/@me/moderation")).body.settings.links.enabled, { timeout: 30_000 }).toBe(true);
    await page.getByLabel("Links action").selectOption("timeout");
    await page.getByLabel("Links: vip exempt").check();
    await expect
      .poll(async () => (await h.api<{ settings: { links: { action: { type: string }; exempt: string[] } } }>("GET", "/v1/bots/@me/moderation")).body.settings.links, { timeout: 30_000 })
      .toMatchObject({ action: { type: "timeout", seconds: 600 }, exempt: ["broadcaster", "moderator", "vip"] });
    await shot(page, "moderation-rules-edited.desktop-light");
    expect(errors).toEqual([]);
    await context.close();

    // On a phone: the switcher fits the top bar and the drawer lists the managed pages.
    const phone = await h.open(VIEWS[2]);
    await h.signIn(phone.page, "/timers", mona);
    await phone.page.getByLabel("Channel").waitFor({ timeout: 30_000 });
    expect(await phone.page.getByLabel("Channel").inputValue()).toBe("");
    await phone.page.getByLabel("Channel").selectOption({ label: "streamer (moderator)" });
    await phone.page.getByRole("button", { name: "Menu" }).click();
    await expect.poll(() => phone.page.getByTestId("nav-channel").textContent()).toContain("Managing streamer");
    await shot(phone.page, "managers-switcher.phone-light");
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(1);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  }, 240_000);

  it("the streamer reads who changed what, revokes the editor, and the page in every view", async () => {
    const viewsTab = await h.open();
    for await (const view of h.eachView(viewsTab.page, "/managers")) {
      const { page, errors } = viewsTab;
      const log = page.getByTestId("audit-log");
      await log.waitFor({ timeout: 30_000 });
      const rows = await log.locator("tbody tr").allTextContents();
      expect(rows.some((r) => r.includes("eddie") && r.includes("POST /v1/bots/{user}/commands") && r.includes("Done"))).toBe(true);
      expect(rows.some((r) => r.includes("mona") && r.includes("POST /v1/bots/{user}/giveaways"))).toBe(true);
      expect(rows.some((r) => r.includes("mona") && r.includes("PUT /v1/bots/{user}/moderation"))).toBe(true);
      expect(rows.some((r) => r.includes("managers.grant"))).toBe(true);
      await shot(page, `managers.${view.name}`);
      // Nothing sticks out sideways at this width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), view.name).toBeLessThanOrEqual(1);
      expect(errors, view.name).toEqual([]);
    }
    await viewsTab.context.close();
    const { context, page } = await h.open();
    await h.signIn(page, "/managers");
    await page.getByRole("button", { name: "Remove eddie" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => page.locator('tr[data-manager="eddie"]').count(), { timeout: 30_000 }).toBe(0);
    await context.close();

    // Eddie's tab still chose the streamer's channel: after the revocation the switcher is gone and the pages are his own.
    const eddieTab = await h.open();
    await h.signIn(eddieTab.page, "/commands", eddie);
    expect(await eddieTab.page.getByLabel("Channel").count()).toBe(0);
    expect((await h.api<{ data: Array<{ action: string }> }>("GET", "/v1/managers/audit")).body.data[0]?.action).toBe("managers.revoke");
    await eddieTab.context.close();
  }, 300_000);
});
