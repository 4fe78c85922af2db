import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../../server/src/identity/accounts/passwords.js";
// The server's console test client (the real /console namespace `ovation chat` uses): shared, not copied.
import { TestConsole } from "../../../server/src/commands/__tests__/console-harness.js";
import { VIEWS, buildAssets, startDashboard } from "./harness.js";
import type { DashboardHarness } from "./harness.js";

type Source = { id: number; browser_source_type: string; access_token: string; settings: Record<string, unknown> };
type Moderation = {
  settings: {
    caps: { min_length: number; max_percent: number; action: { type: string; seconds?: number } };
    length: { max_length: number };
    toxicity: { thresholds: Record<string, number | null>; timeout_seconds: number };
  };
};
type SystemView = { settings: { levels: Record<string, string> }; commands: Array<{ name: string; level: string }> };
type Audit = { data: Array<{ actor_name: string; role: string; action: string; status: number }> };

/**
 * What issue 26 left to the API, now in the dashboard, in real Chromium against the real server: an
 * editor configures the streamer's overlays and read-aloud queue on the Overlays page (in the
 * streamer's audit log; a moderator is refused there); the auto-moderation page's limits (lengths,
 * percentages, timeouts, toxicity scores) checked on the page and by the server, each error under
 * its field; who may use each built-in command, changed on the System commands page and enforced in
 * the console's chat. Screenshots in light, dark and on a phone under test-results/dashboard/.
 */
describe("dashboard: managed overlays, moderation limits, command levels (issue 26)", () => {
  let h: DashboardHarness;
  const password = "another horse battery staple";
  const heading = (page: Page) => page.locator("main h1.page-title");

  async function shot(page: Page, name: string): Promise<void> {
    await page.evaluate(() => window.scrollTo(0, 0));
    await h.screenshot(page, name);
  }

  /** Signs in as a manager (the form the first time, their identity session after: see `h.signIn`). */
  async function signInAs(page: Page, email: string, at: string): Promise<void> {
    await h.signIn(page, at, { email, password });
  }

  async function switchTo(page: Page, label: string): Promise<void> {
    await page.getByLabel("Channel").selectOption({ label });
    await expect.poll(() => page.getByTestId("nav-channel").textContent()).toContain("Managing streamer");
  }

  const sources = async () => (await h.api<{ data: Source[] }>("GET", "/v1/browser-source")).body.data;
  const moderation = async () => (await h.api<Moderation>("GET", "/v1/bots/@me/moderation")).body.settings;
  const audit = async () => (await h.api<Audit>("GET", "/v1/managers/audit?limit=500")).body.data.map((e) => `${e.actor_name} ${e.role} ${e.action} ${e.status}`);

  /** A tip whose read-aloud message waits for approval, held the way the alerts source's page holds it. */
  async function holdSpeech(alertsToken: string, name: string): Promise<string> {
    const alert = await h.api<{ notification: { id: string } }>("POST", "/v1/alerts", { template: "donation", data: { name, amount: 5, currency: "USD", message: `Hello from ${name}` } });
    expect(alert.status).toBe(201);
    const res = await fetch(`${h.base}/browser-source/api/${alertsToken}/speech/${alert.body.notification.id}`);
    expect(res.status).toBe(202);
    return alert.body.notification.id;
  }

  beforeAll(async () => {
    buildAssets();
    h = await startDashboard({ platforms: { env: { OVATION_PLUGINS: "console" } } });
    const hash = await hashPassword(password);
    for (const name of ["eddie", "mona"]) {
      const account = h.app.ovation.repos.users.create({ name, email: `${name}@example.com`, email_verified_at: new Date().toISOString(), password_hash: hash });
      h.app.ovation.repos.managers.grant(h.user.id, account.id, name === "eddie" ? "editor" : "moderator");
    }
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  it("an editor on the streamer's Overlays page saves the chat box's options and approves a held read-aloud message; the streamer's audit log names both", async () => {
    const alerts = await h.api<Source>("POST", "/v1/browser-source/generate", { browser_source_type: "alerts" });
    expect((await h.api("PUT", `/v1/browser-source/${alerts.body.id}/settings`, { settings: { tts: { enabled: true, approval: true } } })).status).toBe(200);
    const chat = await h.api<Source>("POST", "/v1/browser-source/generate", { browser_source_type: "chat" });
    const held = await holdSpeech(alerts.body.access_token, "Dana");

    const { context, page, errors } = await h.open();
    await signInAs(page, "eddie@example.com", "/overlays");
    await switchTo(page, "streamer (editor)");
    expect(await page.locator("nav#primary-nav a.nav-link").allTextContents()).toContain("Overlays");
    await expect.poll(() => page.locator("main .lead").first().textContent(), { timeout: 30_000 }).toContain("Overlays of streamer");
    await page.getByRole("combobox", { name: /^Overlay/ }).selectOption({ label: `Chat box #${chat.body.id}` });
    const editor = page.locator(`.overlay-editor[data-source-id="${chat.body.id}"]`);
    await editor.waitFor({ timeout: 30_000 });
    // No address reaches a manager, so no preview: the page says why instead.
    expect(await editor.locator('[data-preview="withheld"]').textContent()).toContain("only the streamer sees");
    expect(await editor.locator("iframe").count()).toBe(0);

    await editor.getByLabel("Font size").fill("30");
    await editor.getByLabel("Hide commands").check();
    await editor.getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await sources()).find((s) => s.id === chat.body.id)?.settings, { timeout: 30_000 }).toMatchObject({ font_size: 30, hide_commands: true });
    const eddie = h.app.ovation.repos.users.findByName("eddie");
    expect(h.app.ovation.repos.browserSources.listForUser(eddie?.id ?? 0)).toEqual([]);

    // The read-aloud queue shown is the streamer's; approving reads it on the streamer's alerts source.
    const item = page.locator(`li.held-item[data-notification-id="${held}"]`);
    await item.waitFor({ timeout: 30_000 });
    await shot(page, "managed-overlays.desktop-light");
    await item.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => h.app.ovation.speech.isApproved(h.user.id, held), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => item.count(), { timeout: 30_000 }).toBe(0);
    const content = await page.content();
    for (const source of await sources()) expect(content).not.toContain(source.access_token);
    expect(errors).toEqual([]);
    await context.close();

    const log = await audit();
    expect(log).toContain("eddie editor PUT /v1/bots/{user}/browser-source/{id}/settings 200");
    expect(log).toContain("eddie editor POST /v1/bots/{user}/tts/queue/{notification_id}/approve 200");

    const shotPage = await h.open();
    for await (const view of h.eachView(shotPage.page, "/overlays", [VIEWS[1], VIEWS[2]], { email: "eddie@example.com", password })) {
      await switchTo(shotPage.page, "streamer (editor)");
      await shotPage.page.locator(".overlay-editor").waitFor({ timeout: 30_000 });
      await shot(shotPage.page, `managed-overlays.${view.name}`);
      expect(await shotPage.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), view.name).toBeLessThanOrEqual(1);
      expect(shotPage.errors, view.name).toEqual([]);
    }
    await shotPage.context.close();
  }, 300_000);

  it("a moderator of the channel is refused on the streamer's Overlays page, and the API refuses the overlay routes to the role", async () => {
    const before = (await sources()).find((s) => s.browser_source_type === "chat")?.settings;
    const { context, page, errors } = await h.open(VIEWS[2]);
    await signInAs(page, "mona@example.com", "/system-commands");
    await switchTo(page, "streamer (moderator)");
    const nav = await page.locator("nav#primary-nav a.nav-link").allTextContents();
    expect(nav).toContain("Auto-moderation");
    expect(nav).not.toContain("Overlays");
    await page.goto(`${h.dashboard}/overlays`);
    await page.getByTestId("managed-refusal").waitFor({ timeout: 30_000 });
    expect(await page.locator(".overlay-editor").count()).toBe(0);
    await shot(page, "managed-overlays-refused.phone-light");
    expect(errors).toEqual([]);
    await context.close();

    // The same refusal on the API, with the moderator's own token: named, recorded, nothing changed.
    const mona = h.app.ovation.repos.users.findByName("mona");
    const token = h.app.ovation.repos.tokens.create({ user_id: mona?.id ?? 0, name: "mona's", scopes: ["*"] }).token;
    const chat = (await sources()).find((s) => s.browser_source_type === "chat");
    const res = await fetch(`${h.base}/v1/bots/${h.user.id}/browser-source/${chat?.id ?? 0}/settings`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ settings: { font_size: 12 } }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "OVATION_ERR_AUTH_ROLE_FORBIDS", role: "moderator", missing_scopes: ["alerts:manage"] });
    expect((await sources()).find((s) => s.browser_source_type === "chat")?.settings).toEqual(before);
    expect(await audit()).toContain("mona moderator PUT /v1/bots/{user}/browser-source/{id}/settings 403");
  }, 240_000);

  it("moderation limits: an out-of-range value is named under its field before anything is sent, the server's refusal too; valid values are saved", async () => {
    const { context, page, errors } = await h.open();
    const puts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT" && request.url().endsWith("/moderation")) puts.push(request.postData() ?? "");
    });
    await h.signIn(page, "/moderation");
    await expect.poll(() => heading(page).textContent()).toBe("Auto-moderation");
    const limits = page.locator("form", { has: page.getByRole("heading", { name: "Limits" }) });
    const caps = limits.locator('[data-rule-limits="caps"]');
    await caps.waitFor({ timeout: 30_000 });
    // A timeout action brings its length into the limits.
    expect(await caps.getByLabel("Timeout (seconds)").count()).toBe(0);
    await page.getByLabel("Capital letters action").selectOption("timeout");
    await expect.poll(async () => (await moderation()).caps.action, { timeout: 30_000 }).toEqual({ type: "timeout", seconds: 600 });
    await caps.getByLabel("Timeout (seconds)").waitFor({ timeout: 30_000 });
    puts.length = 0;

    await caps.getByLabel("Most capital letters (%)").fill("150");
    await caps.getByLabel("Timeout (seconds)").fill("");
    await limits.getByRole("button", { name: "Save limits" }).click();
    const percentError = limits.locator('[data-field="caps.max_percent"] .field-error');
    await percentError.waitFor({ timeout: 10_000 });
    expect(await percentError.textContent()).toBe("Must be a whole number from 1 to 100.");
    expect(await limits.locator('[data-field="caps.action.seconds"] .field-error').textContent()).toBe("Enter a number.");
    expect(await caps.getByLabel("Most capital letters (%)").getAttribute("aria-invalid")).toBe("true");
    expect(puts).toEqual([]);
    expect((await moderation()).caps.max_percent).toBe(70);
    await percentError.scrollIntoViewIfNeeded();
    await h.screenshot(page, "moderation-limits-error.desktop-light");

    // A value the page lets through but the server refuses (as a page older than the server's bounds
    // would send it): the server's own error is shown under the field it names, and nothing is saved.
    await page.route("**/v1/bots/*/moderation", async (route) => {
      if (route.request().method() !== "PUT") return route.continue();
      const body = JSON.parse(route.request().postData() ?? "{}") as { length: { max_length: number } };
      body.length.max_length = 20_000;
      await route.continue({ postData: JSON.stringify(body) });
    });
    await caps.getByLabel("Most capital letters (%)").fill("60");
    await caps.getByLabel("Timeout (seconds)").fill("120");
    await limits.locator('[data-rule-limits="length"]').getByLabel("Longest message allowed (characters)").fill("400");
    await limits.locator('[data-rule-limits="toxicity"]').getByLabel("Warn from score (%)").fill("40");
    await limits.getByRole("button", { name: "Save limits" }).click();
    const lengthError = limits.locator('[data-field="length.max_length"] .field-error');
    await lengthError.waitFor({ timeout: 30_000 });
    expect(await lengthError.textContent()).toContain("length.max_length");
    expect(await percentError.count()).toBe(0);
    expect((await moderation()).caps.max_percent).toBe(70);
    await page.unroute("**/v1/bots/*/moderation");

    await limits.getByRole("button", { name: "Save limits" }).click();
    await expect.poll(async () => (await moderation()).caps.max_percent, { timeout: 30_000 }).toBe(60);
    const saved = await moderation();
    expect(saved.caps.action).toEqual({ type: "timeout", seconds: 120 });
    expect(saved.length.max_length).toBe(400);
    expect(saved.toxicity.thresholds).toEqual({ warn: 40, delete: 60, timeout: 80, ban: null });
    await expect.poll(() => lengthError.count(), { timeout: 10_000 }).toBe(0);

    // What was saved is what a reload shows.
    await page.reload();
    await page.locator('[data-rule-limits="caps"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-rule-limits="caps"]').getByLabel("Most capital letters (%)").inputValue()).toBe("60");
    expect(await page.locator('[data-rule-limits="toxicity"]').getByLabel("Ban from score (%)").inputValue()).toBe("");
    expect(errors.filter((e) => !e.includes("422"))).toEqual([]);
    await context.close();

    const shotPage = await h.open();
    for await (const view of h.eachView(shotPage.page, "/moderation", [VIEWS[0], VIEWS[1], VIEWS[2]])) {
      const form = shotPage.page.locator("form", { has: shotPage.page.getByRole("heading", { name: "Limits" }) });
      await form.waitFor({ timeout: 30_000 });
      await form.scrollIntoViewIfNeeded();
      await h.screenshot(shotPage.page, `moderation-limits.${view.name}`);
      expect(await shotPage.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), view.name).toBeLessThanOrEqual(1);
      expect(shotPage.errors, view.name).toEqual([]);
    }
    await shotPage.context.close();
  }, 300_000);

  it("who may use a built-in command: the streamer raises !help to subscribers and !visuals to the streamer alone; the console's chat follows", async () => {
    const viewer = await TestConsole.open(h.base, { token: h.user.token, as: "viewer1" });
    const subscriber = await TestConsole.open(h.base, { token: h.user.token, as: "sub1", badges: ["subscriber"] });
    const mod = await TestConsole.open(h.base, { token: h.user.token, as: "mod1", badges: ["moderator"] });
    const owner = await TestConsole.open(h.base, { token: h.user.token });
    try {
      // Before: anyone gets !help's answer.
      await viewer.say("!help");
      await viewer.heard("There are no commands yet.");

      const { context, page, errors } = await h.open();
      await h.signIn(page, "/system-commands");
      await page.locator("tr[data-command]").first().waitFor({ timeout: 30_000 });
      await page.getByLabel("Who may use !help").selectOption({ label: "Subscribers and up" });
      await expect.poll(async () => (await h.api<SystemView>("GET", "/v1/bots/@me/system-commands")).body.settings.levels["help"], { timeout: 30_000 }).toBe("subscriber");
      await page.getByLabel("Who may use !visuals").selectOption({ label: "The streamer only" });
      await expect.poll(async () => (await h.api<SystemView>("GET", "/v1/bots/@me/system-commands")).body.settings.levels["visuals"], { timeout: 30_000 }).toBe("broadcaster");
      const view = (await h.api<SystemView>("GET", "/v1/bots/@me/system-commands")).body;
      expect(view.commands.map((c) => `${c.name}:${c.level}`)).toEqual(["help:subscriber", "language:moderator", "visuals:broadcaster", "effects:moderator", "sounds:moderator"]);
      await page.reload();
      await page.locator("tr[data-command]").first().waitFor({ timeout: 30_000 });
      expect(await page.getByLabel("Who may use !help").inputValue()).toBe("subscriber");
      await shot(page, "system-commands-levels.desktop-light");
      expect(errors).toEqual([]);
      await context.close();

      // After: a viewer without a badge is refused (no answer), a subscriber is answered; the
      // answers reach every console of the channel, so one answer for two asks shows the refusal.
      viewer.said.length = 0;
      await viewer.say("!help");
      await subscriber.say("!help");
      await viewer.heard("There are no commands yet.");
      await mod.say("!visuals off");
      await viewer.heard("Usage: !visuals on|off (now: on)");
      expect(viewer.said.filter((o) => o.text === "There are no commands yet.")).toHaveLength(1);
      expect(h.app.ovation.botModules.system.settings(String(h.user.id)).visuals).toBe(true);
      await owner.say("!visuals off");
      await viewer.heard("Visuals are off now.");
      expect(h.app.ovation.botModules.system.settings(String(h.user.id)).visuals).toBe(false);
    } finally {
      for (const open of [viewer, subscriber, mod, owner]) open.close();
    }

    const shotPage = await h.open();
    for await (const view of h.eachView(shotPage.page, "/system-commands", [VIEWS[1], VIEWS[2]])) {
      await shotPage.page.locator("tr[data-command]").first().waitFor({ timeout: 30_000 });
      await shot(shotPage.page, `system-commands-levels.${view.name}`);
      expect(await shotPage.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), view.name).toBeLessThanOrEqual(1);
      expect(shotPage.errors, view.name).toEqual([]);
    }
    await shotPage.context.close();
  }, 300_000);
});
