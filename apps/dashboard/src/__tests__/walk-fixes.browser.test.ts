import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The server's console test client (the real /console namespace `ovation chat` uses): shared, not copied.
import { TestConsole } from "../../../server/src/commands/__tests__/console-harness.js";
import { buildAssets, startDashboard } from "./harness.js";
import type { DashboardHarness } from "./harness.js";

/**
 * The dashboard bugs of the walk in issue 26, each seen in real Chromium against the real server:
 * the command list the form names really answers, the alert-set editor speaks the names its lists
 * use, and the alert log words a raid's count and draws its rows' borders across the Replay column.
 */
describe("dashboard walk fixes (issue 26)", () => {
  let h: DashboardHarness;
  const heading = (page: Page) => page.locator("main h1.page-title");

  beforeAll(async () => {
    buildAssets();
    h = await startDashboard({ platforms: { env: { OVATION_PLUGINS: "console" } } });
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  it("bug 2: the command form names the command that lists commands, and that command answers with the list", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/commands/new");
    await expect.poll(() => heading(page).textContent()).toBe("New command");
    const id = await page.locator('input[name="is_visible"]').getAttribute("id");
    const label = (await page.locator(`label[for="${id}"]`).textContent()) ?? "";
    const named = /!(\w+)/.exec(label)?.[1];
    expect(named).toBeDefined();
    await page.getByLabel("Name", { exact: true }).fill("lurk");
    await page.getByLabel("Response").fill("{{ event.user.username }} is lurking");
    await page.getByRole("button", { name: "Create command" }).click();
    await expect.poll(() => heading(page).textContent(), { timeout: 30_000 }).toBe("Edit command");
    // The command the label names, typed by a viewer in the local console: it lists the visible command.
    const viewer = await TestConsole.open(h.base, { token: h.user.token, as: "viewer1" });
    try {
      await viewer.say(`!${named}`);
      expect((await viewer.heard("!lurk")).text).toMatch(/^Commands: .*!lurk/);
    } finally {
      viewer.close();
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("bug 6: the editor shows inherited animations as its list spells them, and alert types by name in conditions", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/alert-sets");
    await page.getByRole("button", { name: "New alert set" }).click();
    await page.getByRole("dialog").getByLabel("Name").fill("Walk set");
    await page.getByRole("dialog").getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/dashboard\/alert-sets\/\d+$/);
    await page.getByRole("tab", { name: "Set default" }).click();
    const enter = page.locator(".layer-field", { has: page.getByLabel("Enter animation") }).first();
    const inheritedLine = (await enter.locator(".inherit-line").textContent()) ?? "";
    const inheritedName = inheritedLine.replace(/^Inherited:\s*/, "");
    const offered = await enter.locator("select option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toContain(inheritedName);
    expect(inheritedName).toBe("fade-in");

    await page.getByRole("tab", { name: /^Variations/ }).click();
    await page.getByRole("button", { name: "Add variation" }).click();
    const variation = page.locator("li.item").last();
    await variation.getByRole("button", { name: "Add a condition" }).click();
    const typeOptions = await variation.getByLabel("Type", { exact: true }).locator("option").evaluateAll((options) => options.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent ?? "" })));
    const redemption = typeOptions.find((o) => o.value === "channel_points.redemption.add");
    expect(redemption).toBeDefined();
    expect(redemption?.text).not.toBe("channel_points.redemption.add");
    expect(typeOptions.find((o) => o.value === "follow")?.text).toBe("Follow");
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("bug 10: the alert log words a raid's count as viewers and each row's border runs under the Replay column", async () => {
    // A follow first, so the raid is not the last row (the last row has no border by design).
    expect((await h.api("POST", "/v1/alerts", { template: "follow", data: { name: "Early Fay" } })).status).toBe(201);
    const sent = await h.api<{ notification: { id: string } }>("POST", "/v1/alerts", { template: "raid", data: { name: "Raider Ray", count: 120 } });
    expect(sent.status).toBe(201);
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/alert-log");
    const row = page.locator(`tr[data-notification="${sent.body.notification.id}"]`);
    await row.waitFor({ timeout: 30_000 });
    expect(await row.locator(".cell-sub").textContent()).toBe("120 viewers");
    const bottoms = await row.evaluate((tr) => {
      const rowBottom = tr.getBoundingClientRect().bottom;
      return [...tr.children].map((cell) => ({ cell: cell.className || cell.getAttribute("data-label"), off: Math.round(rowBottom - cell.getBoundingClientRect().bottom), border: getComputedStyle(cell).borderBottomWidth }));
    });
    for (const cell of bottoms) expect(cell, JSON.stringify(cell)).toMatchObject({ off: 0, border: "1px" });
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
