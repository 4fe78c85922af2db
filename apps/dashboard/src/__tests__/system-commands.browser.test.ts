import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VIEWS, buildAssets, startDashboard } from "./harness.js";
import type { DashboardAccount, DashboardHarness } from "./harness.js";

type SystemView = { settings: { language: string; visuals: boolean; effects: boolean; sounds: boolean; disabled_commands: string[]; levels: Record<string, string> } };
type ModerationView = { settings: { bad_words: { words: string[]; patterns: string[] }; links: { allowed_domains: string[] } } };

/**
 * The rest of issue 26's dashboard in real Chromium against the real server: the System commands
 * page (a command switched off, the bot's language, an overlay switch), the auto-moderation word
 * lists with the server's errors shown under their field, and managers on the pages their role
 * newly reaches (an editor on the streamer's goal bars and browser sources, whose addresses stay
 * hidden; a moderator on the streamer's system commands). Screenshots in light, dark and on a
 * phone under test-results/dashboard/.
 */
describe("dashboard: system commands, word lists, managed alert pages (issue 26)", () => {
  let h: DashboardHarness;
  let eddie: DashboardAccount;
  let mona: DashboardAccount;
  const heading = (page: Page) => page.locator("main h1.page-title");

  async function shot(page: Page, name: string): Promise<void> {
    await page.evaluate(() => window.scrollTo(0, 0));
    await h.screenshot(page, name);
  }

  const systemCommands = async () => (await h.api<SystemView>("GET", "/v1/bots/@me/system-commands")).body.settings;
  const moderation = async () => (await h.api<ModerationView>("GET", "/v1/bots/@me/moderation")).body.settings;

  beforeAll(async () => {
    buildAssets();
    h = await startDashboard();
    eddie = await h.addAccount("eddie", { manages: "editor" });
    mona = await h.addAccount("mona", { manages: "moderator" });
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  it("system commands: the streamer switches !help off, the bot to German and the sounds off; a command of their own is shown replacing one", async () => {
    expect((await h.api("POST", "/v1/bots/@me/commands", { command: "!sounds", response: "Sounds are up to the mods" })).status).toBe(201);
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/system-commands");
    await expect.poll(() => heading(page).textContent()).toBe("System commands");
    const rows = page.locator("tr[data-command]");
    await rows.first().waitFor({ timeout: 30_000 });
    expect(await rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-command")))).toEqual(["help", "language", "visuals", "effects", "sounds"]);
    expect(await page.getByLabel("Who may use !help").inputValue()).toBe("everyone");
    expect(await page.getByLabel("Who may use !language").inputValue()).toBe("moderator");
    const replaced = page.locator('tr[data-command="sounds"] [data-replaced-by]');
    expect(await replaced.textContent()).toContain("Your own command of this name answers instead");

    await page.getByLabel("!help on").uncheck();
    await expect.poll(async () => (await systemCommands()).disabled_commands, { timeout: 30_000 }).toEqual(["help"]);
    expect(await page.locator('tr[data-command="help"] .badge').textContent()).toBe("off");
    await page.getByLabel("Language of the bot's own messages").selectOption("de");
    await expect.poll(async () => (await systemCommands()).language, { timeout: 30_000 }).toBe("de");
    await page.getByRole("checkbox", { name: /Sounds/ }).uncheck();
    await expect.poll(async () => (await systemCommands()).sounds, { timeout: 30_000 }).toBe(false);
    expect(await systemCommands()).toEqual({
      language: "de",
      visuals: true,
      effects: true,
      sounds: false,
      disabled_commands: ["help"],
      levels: { help: "everyone", language: "moderator", visuals: "moderator", effects: "moderator", sounds: "moderator" },
    });
    // The switched-off command stays silent in chat (the system command, not a user command).
    expect(h.app.ovation.botModules.system.settings(String(h.user.id)).disabled_commands).toEqual(["help"]);

    // What was saved is what a reload shows.
    await page.reload();
    await page.locator("tr[data-command]").first().waitFor({ timeout: 30_000 });
    expect(await page.getByLabel("!help on").isChecked()).toBe(false);
    expect(await page.getByLabel("Language of the bot's own messages").inputValue()).toBe("de");
    expect(errors).toEqual([]);
    await context.close();

    const shotPage = await h.open();
    for await (const view of h.eachView(shotPage.page, "/system-commands")) {
      await shotPage.page.locator("tr[data-command]").first().waitFor({ timeout: 30_000 });
      await shot(shotPage.page, `system-commands.${view.name}`);
      expect(await shotPage.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), view.name).toBeLessThanOrEqual(1);
      expect(shotPage.errors, view.name).toEqual([]);
    }
    await shotPage.context.close();
  }, 300_000);

  it("word lists: a pattern RE2 refuses is named under its field by line, nothing is saved; fixed, the lists are saved", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/moderation");
    await expect.poll(() => heading(page).textContent()).toBe("Auto-moderation");
    const words = page.getByLabel("Bad words and phrases");
    const patterns = page.getByLabel("Bad-word patterns");
    const domains = page.getByLabel("Allowed link domains");
    await words.waitFor({ timeout: 30_000 });
    await words.fill("spoiler\n\nfree followers");
    await patterns.fill("b[a4]d\n(?=lookahead)x");
    await domains.fill("example.com\nclips.twitch.tv");
    await page.getByRole("button", { name: "Save word lists" }).click();
    const patternError = page.locator('[data-field="bad_words.patterns"] .field-error');
    await patternError.waitFor({ timeout: 30_000 });
    expect(await patternError.textContent()).toMatch(/^Line 2: The bad_words\.patterns\.1 field is invalid/);
    expect(await page.locator('[data-field="bad_words.patterns"] textarea').getAttribute("aria-invalid")).toBe("true");
    // Nothing was saved, and what was typed is still there to fix.
    expect((await moderation()).bad_words.words).toEqual([]);
    expect(await patterns.inputValue()).toBe("b[a4]d\n(?=lookahead)x");
    await shot(page, "moderation-word-lists-error.desktop-light");

    // A malformed domain is named under its own field.
    await patterns.fill("b[a4]d");
    await domains.fill("example.com\nhttps://bad.example/path");
    await page.getByRole("button", { name: "Save word lists" }).click();
    const domainError = page.locator('[data-field="links.allowed_domains"] .field-error');
    await domainError.waitFor({ timeout: 30_000 });
    expect(await domainError.textContent()).toContain("Line 2:");
    expect(await patternError.count()).toBe(0);

    await domains.fill("example.com\nclips.twitch.tv");
    await page.getByRole("button", { name: "Save word lists" }).click();
    await expect.poll(async () => (await moderation()).bad_words.patterns, { timeout: 30_000 }).toEqual(["b[a4]d"]);
    const saved = await moderation();
    expect(saved.bad_words.words).toEqual(["spoiler", "free followers"]);
    expect(saved.links.allowed_domains).toEqual(["example.com", "clips.twitch.tv"]);
    await expect.poll(() => domainError.count(), { timeout: 30_000 }).toBe(0);
    // The saved lists are in force: "Test a message" finds the pattern once the rule is on.
    await page.getByLabel("Bad words on").check();
    await expect.poll(async () => (await h.api<{ settings: { bad_words: { enabled: boolean } } }>("GET", "/v1/bots/@me/moderation")).body.settings.bad_words.enabled, { timeout: 30_000 }).toBe(true);
    expect((await moderation()).bad_words.patterns).toEqual(["b[a4]d"]);
    await page.getByLabel("Chat message").fill("that was b4d");
    await page.getByRole("button", { name: "Test", exact: true }).click();
    await expect.poll(() => page.locator("output.moderation-verdict").getAttribute("data-rule"), { timeout: 30_000 }).toBe("bad_words");
    expect(errors.filter((e) => !e.includes("422"))).toEqual([]);
    await context.close();

    const shotPage = await h.open();
    for await (const view of h.eachView(shotPage.page, "/moderation")) {
      await shotPage.page.getByLabel("Bad words and phrases").waitFor({ timeout: 30_000 });
      await shot(shotPage.page, `moderation-word-lists.${view.name}`);
      expect(await shotPage.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), view.name).toBeLessThanOrEqual(1);
    }
    await shotPage.context.close();
  }, 300_000);

  it("an editor on the streamer's channel: the alert pages are listed, a goal bar and an alert set are made for the streamer, the sources' addresses stay hidden, the log is not live", async () => {
    expect((await h.api("POST", "/v1/browser-source/generate", { browser_source_type: "alerts" })).status).toBeLessThan(300);
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/goal-bars", eddie);
    await h.switchChannel(page, "streamer (editor)");
    const nav = await page.locator("nav#primary-nav a.nav-link").allTextContents();
    expect(nav).toEqual(expect.arrayContaining(["Alert sets", "Browser sources", "Overlays", "Goal bars", "Alert log", "Simulator", "Commands"]));
    expect(nav).not.toContain("System commands");

    await page.getByLabel("Title").fill("Streamer's road to 5");
    await page.getByLabel("Counts").selectOption("subscribers");
    await page.getByLabel("Target").fill("5");
    await page.getByRole("button", { name: "Create goal bar" }).click();
    await page.locator("li[data-goal]").filter({ hasText: "Streamer's road to 5" }).waitFor({ timeout: 30_000 });
    const goals = (await h.api<{ data: Array<{ goal_bar: { title: string } }> }>("GET", "/v1/goal-bars")).body.data;
    expect(goals.map((g) => g.goal_bar.title)).toContain("Streamer's road to 5");
    expect(h.app.ovation.repos.goalBars.listForUser(eddie.id)).toEqual([]);

    await page.getByRole("link", { name: "Browser sources" }).first().click();
    await expect.poll(() => heading(page).textContent()).toBe("Browser sources");
    const card = page.locator('li.source-card[data-type="alerts"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator('[data-secret="withheld"]').textContent()).toContain("Only the channel's owner sees this source's address");
    expect(await card.locator("input.source-url").count()).toBe(0);
    expect(await card.getByRole("button", { name: "New address…" }).count()).toBe(0);
    const token = h.app.ovation.repos.browserSources.listForUser(h.user.id)[0]?.access_token ?? "missing";
    expect(await page.content()).not.toContain(token);
    await shot(page, "managed-browser-sources.desktop-light");

    // The alert sets listed are the streamer's; duplicating one makes it on the streamer's account.
    const set = h.app.ovation.repos.alertSets.listForUser(h.user.id)[0];
    await page.getByRole("link", { name: "Alert sets" }).first().click();
    await expect.poll(() => heading(page).textContent()).toBe("Alert sets");
    await page.locator(`tr[data-set="${set?.name ?? "missing"}"]`).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: `Duplicate ${set?.name ?? "missing"}` }).click();
    await expect.poll(() => h.app.ovation.repos.alertSets.listForUser(h.user.id).map((s) => s.name), { timeout: 30_000 }).toContain(`${set?.name ?? "missing"} (copy)`);
    expect(h.app.ovation.repos.alertSets.listForUser(eddie?.id ?? 0).map((s) => s.name)).not.toContain(`${set?.name ?? "missing"} (copy)`);
    // The alert log shows the streamer's log, without live updates (the streamer's room is the streamer's own).
    await page.getByRole("link", { name: "Alert log" }).first().click();
    await expect.poll(() => page.locator("[data-live]").getAttribute("data-live"), { timeout: 30_000 }).toBe("offline");
    expect(errors).toEqual([]);
    await context.close();

    const log = (await h.api<{ data: Array<{ actor_name: string; action: string; status: number }> }>("GET", "/v1/managers/audit")).body.data;
    expect(log).toContainEqual(expect.objectContaining({ actor_name: "eddie", action: "POST /v1/bots/{user}/goal-bars", status: 201 }));
  }, 240_000);

  it("a moderator switches the streamer's bot back to English on the System commands page", async () => {
    const { context, page, errors } = await h.open(VIEWS[2]);
    await h.signIn(page, "/system-commands", mona);
    await page.getByLabel("Channel").selectOption({ label: "streamer (moderator)" });
    await page.locator('tr[data-command="help"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByLabel("Language of the bot's own messages").inputValue(), { timeout: 30_000 }).toBe("de");
    await page.getByLabel("Language of the bot's own messages").selectOption("en");
    await expect.poll(async () => (await systemCommands()).language, { timeout: 30_000 }).toBe("en");
    await shot(page, "managed-system-commands.phone-light");
    expect(h.app.ovation.botModules.system.settings(String(mona.id)).language).toBe("en");
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
