import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAssets, startDashboard } from "./harness.js";
import type { DashboardHarness } from "./harness.js";

/**
 * The overlays page in real Chromium against a real server: it loads as a chunk of its own, saves a
 * chat box's options (the live preview is the real page), and lays out a scene by dragging a part.
 */
describe("dashboard overlays page (issue 32)", () => {
  let h: DashboardHarness;

  beforeAll(async () => {
    buildAssets();
    h = await startDashboard({ platforms: { env: { OVATION_PLUGINS: "console" } } });
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  it("configures a chat box with a live preview, and drags a scene part to a new place", { timeout: 120_000 }, async () => {
    const chat = await h.api<{ id: number }>("POST", "/v1/browser-source/generate", { browser_source_type: "chat" });
    const { page, errors } = await h.open();
    const chunks: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/assets/chunks/")) chunks.push(request.url());
    });
    await h.signIn(page, "/overlays");
    const editor = page.locator(`.overlay-editor[data-source-id="${chat.body.id}"]`);
    await editor.waitFor({ timeout: 30_000 });
    expect(chunks.some((url) => url.includes("overlays-view"))).toBe(true);
    await editor.getByLabel("Theme").selectOption("light");
    await editor.getByLabel("Hidden users").fill("Mallory, Eve");
    await editor.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(async () => (await h.api<{ data: Array<{ id: number; settings: Record<string, unknown> }> }>("GET", "/v1/browser-source")).body.data.find((s) => s.id === chat.body.id)?.settings)
      .toMatchObject({ theme: "light", hidden_users: ["Mallory", "Eve"] });
    // The live preview is the real chat page, following the save.
    await page.frameLocator("iframe.overlay-preview").locator('.ovation-chat[data-theme="light"]').waitFor({ timeout: 15_000 });

    await page.getByRole("button", { name: "Add scene" }).click();
    const scene = page.locator(".overlay-editor", { has: page.locator(".scene-stage") });
    await scene.waitFor({ timeout: 15_000 });
    await scene.getByLabel("Add a source").selectOption({ label: `chat #${chat.body.id}` });
    const box = scene.locator(".scene-box").first();
    const stage = await scene.locator(".scene-stage").boundingBox();
    const start = await box.boundingBox();
    if (!stage || !start) throw new Error("no layout");
    await page.mouse.move(start.x + 20, start.y + 20);
    await page.mouse.down();
    await page.mouse.move(start.x + 20 + stage.width * 0.3, start.y + 20 + stage.height * 0.2, { steps: 8 });
    await page.mouse.up();
    await scene.getByRole("button", { name: "Save" }).click();
    const sceneId = Number(await scene.getAttribute("data-source-id"));
    await expect
      .poll(async () => {
        const list = await h.api<{ data: Array<{ id: number; settings: { parts?: Array<{ x: number; y: number }> } }> }>("GET", "/v1/browser-source");
        const part = list.body.data.find((s) => s.id === sceneId)?.settings.parts?.[0];
        return part ? [Math.round(part.x), Math.round(part.y)] : null;
      })
      .toEqual([35, 25]);
    await h.screenshot(page, "overlays-scene");
    expect(errors).toEqual([]);
    await page.close();
  });
});
