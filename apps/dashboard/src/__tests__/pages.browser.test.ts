import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusedPlugin } from "../../../server/src/__tests__/refused-plugin.js";
import { buildAssets, startDashboard } from "./harness.js";
import type { DashboardHarness } from "./harness.js";

/**
 * The dashboard pages other than alert sets, in real Chromium against a real server: commands
 * (a syntax error shown at its line and column, a dry run), browser sources (a new address after a
 * confirmation), the alert log updated live over the socket, counters, tokens and the password
 * change behind an EAT read from the real SMTP server's mail. Every page is photographed in light,
 * dark, desktop and phone under test-results/dashboard/.
 */
describe("dashboard pages (issue 18)", () => {
  let h: DashboardHarness;

  /** How many mails the user has now: the next EAT code is the mail after these. */
  const mailsSoFar = () => h.smtp.mails.filter((m) => m.to.includes(h.user.email)).length;

  /** Answers the EAT prompt with the code of the mail it sent (the prompt mails as it opens). */
  async function answerEat(page: Page, before: number): Promise<void> {
    const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
    await dialog.waitFor({ timeout: 30_000 });
    const code = await h.lastEatCode(before + 1);
    await dialog.getByLabel("Code from the email").fill(code);
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await dialog.waitFor({ state: "hidden", timeout: 30_000 });
  }

  const heading = (page: Page) => page.locator("main h1.page-title");

  /** A full-page screenshot from the top (a scrolled page would draw the sticky top bar mid-page). */
  async function shot(page: Page, name: string): Promise<void> {
    await page.evaluate(() => window.scrollTo(0, 0));
    await h.screenshot(page, name);
  }

  beforeAll(async () => {
    buildAssets();
    h = await startDashboard({ platforms: { env: { OVATION_PLUGINS: "console" }, factories: [refusedPlugin] } });
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  it("creates a command: a template error is shown at its line and column, the fixed command dry-runs as a viewer with badges", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/commands/new");
    await expect.poll(() => heading(page).textContent()).toBe("New command");
    await page.getByLabel("Name", { exact: true }).fill("hug");
    await page.getByLabel("Aliases").fill("cuddle");
    await page.getByLabel("Response").fill("Hello!\n{{ args[1] | upper( }}");
    await page.getByRole("button", { name: "Create command" }).click();
    const problem = page.locator(".template-error");
    await problem.waitFor({ timeout: 30_000 });
    expect(await problem.getAttribute("data-line")).toBe("2");
    expect(Number(await problem.getAttribute("data-column"))).toBeGreaterThan(1);
    expect(await problem.textContent()).toMatch(/Line 2, column \d+:/);
    expect(await page.locator(".gutter-error").textContent()).toBe("2");
    expect(await page.getByLabel("Response").getAttribute("aria-invalid")).toBe("true");
    // "Show the spot" puts the caret on the reported line.
    await problem.getByRole("button", { name: "Show the spot" }).click();
    const caretLine = await page.getByLabel("Response").evaluate((el) => (el as HTMLTextAreaElement).value.slice(0, (el as HTMLTextAreaElement).selectionStart).split("\n").length);
    expect(caretLine).toBe(2);
    await shot(page, "command-syntax-error.desktop-light");
    expect((await h.api<{ data: unknown[] }>("GET", "/v1/bots/@me/commands")).body.data).toEqual([]);

    await page.getByLabel("Response").fill("{{ event.user.username }} hugs {{ args[1] }} <3");
    await page.getByLabel("Who may use it").selectOption("3");
    // The dry run tries the form as it is, before it is saved.
    const draftPanel = page.locator("section", { has: page.getByRole("heading", { name: "Try it" }) });
    await draftPanel.getByLabel("Chat message").fill("!cuddle Bob");
    await draftPanel.getByLabel("moderator").check();
    await draftPanel.getByRole("button", { name: "Run" }).click();
    await expect.poll(() => draftPanel.locator("output.answer-text").textContent(), { timeout: 30_000 }).toBe("viewer hugs Bob <3");
    expect((await h.api<{ data: unknown[] }>("GET", "/v1/bots/@me/commands")).body.data).toEqual([]);
    await page.getByRole("button", { name: "Create command" }).click();
    await expect.poll(() => heading(page).textContent(), { timeout: 30_000 }).toBe("Edit command");
    const saved = (await h.api<{ data: Array<{ command: string; command_aliases: string[]; permissions: number }> }>("GET", "/v1/bots/@me/commands")).body.data;
    expect(saved).toMatchObject([{ command: "hug", command_aliases: ["cuddle"], permissions: 3 }]);

    // Dry run: a viewer without badges is refused, a moderator gets the answer.
    const panel = page.locator("section", { has: page.getByRole("heading", { name: "Try it" }) });
    await panel.getByLabel("Chat message").fill("!hug Alice");
    await panel.getByLabel("Viewer name").fill("Zoe");
    await panel.getByRole("button", { name: "Run" }).click();
    await expect.poll(() => panel.locator(".dry-run-result").getAttribute("data-status"), { timeout: 30_000 }).toBe("permission");
    await panel.getByLabel("moderator").check();
    await panel.getByRole("button", { name: "Run" }).click();
    await expect.poll(() => panel.locator(".dry-run-result").getAttribute("data-status"), { timeout: 30_000 }).toBe("sent");
    expect(await panel.locator("output.answer-text").textContent()).toBe("Zoe hugs Alice <3");
    await shot(page, "command-dry-run.desktop-light");

    // The list shows it; the keyboard reaches its actions.
    await page.getByRole("link", { name: "Commands" }).first().click();
    await page.locator('tr[data-command="hug"]').waitFor();
    expect(await page.locator('tr[data-command="hug"]').textContent()).toContain("Moderators and up");
    // Edit from the list, then delete after the confirmation.
    await page.getByRole("link", { name: "Edit !hug" }).click();
    await page.getByLabel("Cooldown per viewer (seconds)").fill("30");
    // The creation's "Saved !hug." toast may still show: closed first, the toast awaited is the edit's.
    await h.dismissToasts(page);
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.locator(".toast-success").filter({ hasText: "Saved !hug." }).first().waitFor({ timeout: 30_000 });
    expect((await h.api<{ data: Array<{ user_cooldown: number }> }>("GET", "/v1/bots/@me/commands")).body.data[0]?.user_cooldown).toBe(30);
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Delete !hug" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.locator('tr[data-command="hug"]').waitFor({ state: "detached", timeout: 30_000 });
    expect((await h.api<{ data: unknown[] }>("GET", "/v1/bots/@me/commands")).body.data).toEqual([]);
    // The refused save's 422 is logged by the browser; nothing else went wrong on the page.
    expect(errors).toContain("Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)");
    expect(errors.filter((e) => !e.startsWith("Failed to load resource"))).toEqual([]);
    await context.close();
  }, 180_000);

  it("makes a new browser-source address after a confirmation; the old one stops working", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/browser-sources");
    await expect.poll(() => heading(page).textContent()).toBe("Browser sources");
    const form = page.locator("form", { has: page.getByRole("heading", { name: "New browser source" }) });
    await form.getByLabel("Type").selectOption("alerts");
    await form.getByRole("button", { name: "Create" }).click();
    const card = page.locator('li.source-card[data-type="alerts"]').first();
    await card.waitFor({ timeout: 30_000 });
    const before = (await card.locator("input.source-url").getAttribute("data-url")) ?? "";
    const oldToken = before.split("/").pop() ?? "";
    expect((await fetch(`${h.base}/browser-source/api/${oldToken}/config`)).status).toBe(200);
    // The address shown is masked; Cancel keeps it.
    expect(await card.locator("input.source-url").inputValue()).not.toContain(oldToken);
    await card.getByRole("button", { name: "New address…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    // Closed before the keyboard part: an Enter while it is still closing would go to the old dialog.
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    expect(await card.locator("input.source-url").getAttribute("data-url")).toBe(before);
    // Keyboard only: Enter on the focused button opens the dialog, Escape closes it and focus comes back.
    await card.getByRole("button", { name: "New address…" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    expect(await card.locator("input.source-url").getAttribute("data-url")).toBe(before);

    await card.getByRole("button", { name: "New address…" }).click();
    await shot(page, "browser-source-regenerate-confirm.desktop-light");
    await page.getByRole("dialog").getByRole("button", { name: "Make a new address" }).click();
    await expect.poll(() => card.locator("input.source-url").getAttribute("data-url"), { timeout: 30_000 }).not.toBe(before);
    const newToken = ((await card.locator("input.source-url").getAttribute("data-url")) ?? "").split("/").pop() ?? "";
    expect((await fetch(`${h.base}/browser-source/api/${oldToken}/config`)).status).toBe(404);
    expect((await fetch(`${h.base}/browser-source/api/${newToken}/config`)).status).toBe(200);
    expect(await card.getByRole("link", { name: "Open preview" }).getAttribute("href")).toContain(newToken);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("shows a new alert in the log live, pauses one source and replays an alert", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/alert-log");
    await expect.poll(() => heading(page).textContent()).toBe("Alert log and queue");
    await expect.poll(() => page.locator(".live-status").getAttribute("data-live"), { timeout: 30_000 }).toBe("live");
    const sent = await h.api<{ notification: { id: string } }>("POST", "/v1/alerts", { template: "follow", data: { name: "Live Lou" } });
    expect(sent.status).toBe(201);
    // No reload: the row arrives over the socket.
    await page.locator(`tr[data-notification="${sent.body.notification.id}"]`).waitFor({ timeout: 30_000 });
    expect(await page.locator(`tr[data-notification="${sent.body.notification.id}"]`).textContent()).toContain("Live Lou");

    const sources = (await h.api<{ data: Array<{ id: number; browser_source_type: string }> }>("GET", "/v1/browser-source")).body.data.filter((s) => s.browser_source_type === "alerts");
    const source = sources[0];
    if (!source) throw new Error("the previous test made an alerts source");
    const row = page.locator(`li.queue-row[data-source="${source.id}"]`);
    await row.getByRole("button", { name: /^Pause / }).click();
    await expect.poll(() => row.getAttribute("data-paused"), { timeout: 30_000 }).toBe("true");
    expect((await h.api<{ paused: boolean; paused_sources: number[] }>("GET", "/v1/alerts/log")).body).toMatchObject({ paused: false, paused_sources: [source.id] });
    // A change made elsewhere (the API) reaches the page too.
    await h.api("POST", "/v1/alerts/queue/resume", { browser_source_id: source.id });
    await expect.poll(() => row.getAttribute("data-paused"), { timeout: 30_000 }).toBe("false");
    await page.getByRole("button", { name: "Replay the follow alert of Live Lou" }).click();
    await page.locator(".toast-success").filter({ hasText: "again" }).waitFor({ timeout: 30_000 });
    await shot(page, "alert-log-live.desktop-light");
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("keeps a resume made elsewhere when the answer to the page's own Pause arrives after it", async () => {
    // The alerts source an earlier test made (one of its own when this test runs alone).
    const source =
      (await h.api<{ data: Array<{ id: number; browser_source_type: string }> }>("GET", "/v1/browser-source")).body.data.find((s) => s.browser_source_type === "alerts") ??
      (await h.api<{ id: number }>("POST", "/v1/browser-source/generate", { browser_source_type: "alerts" })).body;
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/alert-log");
    await expect.poll(() => page.locator(".live-status").getAttribute("data-live"), { timeout: 30_000 }).toBe("live");
    // The Pause answer is held (a slow network) until the pause and a resume made through the API
    // have both reached the page live; a loaded machine delivered it that late once.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/v1/alerts/queue/pause", async (route) => {
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    const row = page.locator(`li.queue-row[data-source="${source.id}"]`);
    await row.getByRole("button", { name: /^Pause / }).click();
    await expect.poll(() => row.getAttribute("data-paused"), { timeout: 30_000 }).toBe("true");
    await h.api("POST", "/v1/alerts/queue/resume", { browser_source_id: source.id });
    await expect.poll(() => row.getAttribute("data-paused"), { timeout: 30_000 }).toBe("false");
    release();
    await page.locator(".toast-success").filter({ hasText: "Paused" }).waitFor({ timeout: 30_000 });
    // The toast comes with the answer's handling: the row shows what the page made of it.
    expect(await row.getAttribute("data-paused")).toBe("false");
    expect((await h.api<{ paused_sources: number[] }>("GET", "/v1/alerts/log")).body.paused_sources).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("changes a counter and creates a personal access token behind the EAT prompt (shown once, and it works)", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/counters");
    const form = page.locator("form", { has: page.getByRole("heading", { name: "New counter" }) });
    await form.getByLabel("Name").fill("deaths");
    await form.getByLabel("Chat keyword (optional)").fill("deaths");
    await form.getByRole("button", { name: "Create counter" }).click();
    const card = page.locator('li.counter-card[data-counter="deaths"]');
    await card.waitFor({ timeout: 30_000 });
    // The first step's answer is held back for a while: had the page sent the second step meanwhile,
    // its answer (2) would come first and the held one (1) would overwrite it on the card.
    let inFlight = 0;
    let mostInFlight = 0;
    let first = true;
    await page.route("**/v1/bots/*/counters/values", async (route) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const held = first;
      first = false;
      const response = await route.fetch();
      if (held) await new Promise((resolve) => setTimeout(resolve, 1_500));
      inFlight -= 1;
      await route.fulfill({ response });
    });
    await card.getByRole("button", { name: "Add 1 to deaths" }).click();
    await card.getByRole("button", { name: "Add 1 to deaths" }).click();
    await expect.poll(() => page.locator('li.counter-card[data-counter="deaths"] .counter-value').textContent(), { timeout: 30_000 }).toBe("2");
    expect((await h.api<Array<{ name: string; value: number }>>("GET", "/v1/bots/@me/counters")).body).toMatchObject([{ name: "deaths", value: 2 }]);
    expect(mostInFlight).toBe(1);
    await page.unroute("**/v1/bots/*/counters/values");

    await page.getByRole("link", { name: "Access tokens" }).first().click();
    await expect.poll(() => heading(page).textContent()).toBe("Access tokens");
    await page.getByLabel("Name").fill("stream deck");
    const before = mailsSoFar();
    await page.getByRole("button", { name: "Create token…" }).click();
    await answerEat(page, before);
    const secret = page.locator("#new-token-secret");
    await secret.waitFor({ timeout: 30_000 });
    const token = await secret.inputValue();
    const log = await fetch(`${h.base}/v1/alerts/log`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
    expect(log.status).toBe(200);
    await page.locator("tr", { hasText: "stream deck" }).waitFor();
    await shot(page, "token-created.desktop-light");
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("loads every page in light, dark, desktop and phone (screenshots)", async () => {
    const pages = [
      ["commands", "/commands", "Commands"],
      ["command-editor", "/commands/new", "New command"],
      ["browser-sources", "/browser-sources", "Browser sources"],
      ["alert-log", "/alert-log", "Alert log and queue"],
      ["counters", "/counters", "Counters"],
      ["plugins", "/plugins", "Plugins"],
      ["tokens", "/tokens", "Access tokens"],
      ["security", "/security", "Security"],
    ] as const;
    const { context, page, errors } = await h.open();
    for await (const view of h.eachView(page, "/")) {
      for (const [name, path, title] of pages) {
        await page.goto(`${h.dashboard}${path}`);
        await expect.poll(() => heading(page).textContent(), { timeout: 30_000 }).toBe(title);
        await page.waitForFunction(() => document.querySelector(".loading-line") === null, undefined, { timeout: 30_000 });
        if (name === "plugins") {
          await page.locator('li[data-plugin="refused"][data-status="failed"] .fix').waitFor({ timeout: 30_000 });
          expect(await page.locator('li[data-plugin="console"]').getAttribute("data-status")).toBe("connected");
        }
        await shot(page, `${name}.${view.name}`);
        // Nothing sticks out sideways at this width.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${name} at ${view.name}`).toBeLessThanOrEqual(1);
      }
      expect(errors, view.name).toEqual([]);
    }
    await context.close();
  }, 300_000);

  it("turns two-step verification on with a code of the app, shows the recovery codes once, makes new ones and turns it off", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/security");
    const section = page.locator("section", { has: page.getByRole("heading", { name: "Two-step verification" }) });
    const before = mailsSoFar();
    await section.getByRole("button", { name: "Turn on…" }).click();
    await answerEat(page, before);
    const key = ((await section.locator("code.totp-secret").textContent()) ?? "").replace(/\s+/g, "");
    const totp = new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30, algorithm: "SHA1" });
    await section.getByLabel("Code from the app").fill(totp.generate());
    await section.getByRole("button", { name: "Turn on", exact: true }).click();
    const codes = section.getByRole("list", { name: "Recovery codes" }).locator("li");
    await expect.poll(() => codes.count(), { timeout: 30_000 }).toBe(10);
    const first = await codes.allTextContents();
    await shot(page, "security-recovery-codes.desktop-light");
    await section.getByRole("button", { name: "I saved them" }).click();
    await section.getByText("10 recovery codes left").waitFor({ timeout: 30_000 });
    expect((await h.api("GET", "/api/users/@me/two-factor")).body).toEqual({ enabled: true, recovery_codes_left: 10 });

    await section.getByRole("button", { name: "New recovery codes…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Make new codes" }).click();
    await expect.poll(() => codes.count(), { timeout: 30_000 }).toBe(10);
    expect((await codes.allTextContents()).some((c) => first.includes(c))).toBe(false);
    await section.getByRole("button", { name: "I saved them" }).click();

    await section.getByRole("button", { name: "Turn off…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Turn off" }).click();
    await expect.poll(async () => (await h.api<{ enabled: boolean }>("GET", "/api/users/@me/two-factor")).body.enabled, { timeout: 30_000 }).toBe(false);
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    await context.close();
  }, 120_000);

  it("changes the password with an EAT from the mail; every session ends and the new password signs in", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/security");
    await expect.poll(() => heading(page).textContent()).toBe("Security");
    const section = page.locator("section", { has: page.getByRole("heading", { name: "Password" }) });
    await section.getByLabel("Current password").fill(h.user.password);
    await section.getByLabel("New password", { exact: true }).fill("a much longer new passphrase");
    await section.getByLabel("New password again").fill("a different passphrase");
    await section.getByRole("button", { name: "Change password…" }).click();
    expect(await section.locator(".field-error").textContent()).toContain("differ");
    await section.getByLabel("New password again").fill("a much longer new passphrase");
    const before = mailsSoFar();
    await section.getByRole("button", { name: "Change password…" }).click();
    await answerEat(page, before);
    await page.getByRole("alert").filter({ hasText: "Your password was changed" }).waitFor({ timeout: 30_000 });
    await shot(page, "password-changed.desktop-light");

    // The old password no longer signs in; the new one does.
    const fresh = await h.open();
    const oldTry = fresh.page;
    await oldTry.goto(h.dashboard);
    await oldTry.getByRole("button", { name: "Sign in" }).click();
    await oldTry.getByLabel("Email address").fill(h.user.email);
    await oldTry.getByLabel("Password").fill(h.user.password);
    await oldTry.getByRole("button", { name: "Sign in" }).click();
    await oldTry.getByText(/incorrect|do not match|invalid/i).first().waitFor({ timeout: 30_000 });
    await oldTry.getByLabel("Password").fill("a much longer new passphrase");
    await oldTry.getByRole("button", { name: "Sign in" }).click();
    await heading(oldTry).waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
    await fresh.context.close();
    await context.close();
  }, 180_000);
});
