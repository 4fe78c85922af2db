import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VIEWS, buildAssets, startDashboard } from "./harness.js";
import type { DashboardHarness } from "./harness.js";

/** Sign-in through Ovation's own OAuth server as the built-in public client, in real Chromium. */
describe("dashboard sign-in (issue 18)", () => {
  let h: DashboardHarness;

  beforeAll(async () => {
    buildAssets();
    h = await startDashboard();
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });

  it("serves /dashboard with a strict CSP, redirects / to it, and answers deep links with the app", async () => {
    const root = await fetch(`${h.base}/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/dashboard");
    const deep = await fetch(`${h.base}/dashboard/alert-sets/12`);
    expect(deep.status).toBe(200);
    const csp = deep.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'self' http:\/\/127\.0\.0\.1:\d+;/);
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await deep.text()).toContain('id="ovation-dashboard-bootstrap"');
    expect((await fetch(`${h.base}/dashboard/assets/app.js`)).status).toBe(200);
    expect((await fetch(`${h.base}/dashboard/assets/missing.js`)).status).toBe(404);
  });

  it("signs in with code + PKCE (no consent page for the built-in client), lands on the deep link, refreshes, signs out", async () => {
    const { context, page, errors } = await h.open();
    await h.signIn(page, "/no-such-page");
    expect(new URL(page.url()).pathname).toBe("/dashboard/no-such-page");
    await expect.poll(() => page.locator("main h1").textContent()).toBe("Page not found");
    await expect.poll(() => page.getByTestId("user-name").textContent()).toBe("streamer");

    // Tokens live in this tab's sessionStorage only; the access token is a JWT the API accepts.
    const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem("ovation.dashboard.tokens") ?? "null") as { access_token: string; refresh_token: string | null });
    expect(stored.refresh_token).toBeTruthy();
    const me = await fetch(`${h.base}/api/users/@me`, { headers: { authorization: `Bearer ${stored.access_token}`, accept: "application/json" } });
    expect(me.status).toBe(200);
    expect(await page.evaluate(() => localStorage.getItem("ovation.dashboard.tokens"))).toBeNull();

    // An expired access token is refreshed (rotated refresh token) on the next call.
    await page.evaluate(() => {
      const tokens = JSON.parse(sessionStorage.getItem("ovation.dashboard.tokens") ?? "{}") as Record<string, unknown>;
      sessionStorage.setItem("ovation.dashboard.tokens", JSON.stringify({ ...tokens, expires_at: Date.now() - 1000 }));
    });
    await page.reload();
    await page.getByRole("link", { name: "Overview" }).first().click();
    await expect.poll(() => page.locator("main h1").textContent()).toBe("Overview");

    // Sign-out revokes the tokens and ends the authorization server's session.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await page.getByRole("heading", { name: "Signed out" }).waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe("/dashboard/signed-out");
    await h.screenshot(page, "signed-out.desktop-light");
    const after = await fetch(`${h.base}/api/users/@me`, { headers: { authorization: `Bearer ${stored.access_token}`, accept: "application/json" } });
    expect(after.status).toBe(401);
    expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    await context.close();
  }, 120_000);

  it("an expired session without a refresh goes back to sign-in with a message", async () => {
    const { context, page } = await h.open();
    await h.signIn(page);
    await page.evaluate(() => {
      const tokens = JSON.parse(sessionStorage.getItem("ovation.dashboard.tokens") ?? "{}") as Record<string, unknown>;
      sessionStorage.setItem("ovation.dashboard.tokens", JSON.stringify({ ...tokens, refresh_token: "revoked-or-unknown", expires_at: Date.now() - 1000 }));
    });
    // The shell's first call (who is signed in) finds the token expired and the refresh refused.
    await page.reload();
    await page.getByRole("alert").filter({ hasText: "Your session expired" }).waitFor({ timeout: 30_000 });
    await h.screenshot(page, "session-expired.desktop-light");
    await page.getByRole("alert").filter({ hasText: "Your session expired" }).waitFor({ timeout: 30_000 });
    await context.close();
  }, 120_000);

  it("shows the sign-in screen and the overview in light, dark, desktop and phone", async () => {
    for (const view of VIEWS) {
      const { context, page, errors } = await h.open(view);
      await page.goto(h.dashboard);
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      await h.screenshot(page, `sign-in.${view.name}`);
      await h.signIn(page);
      await h.screenshot(page, `overview.${view.name}`);
      if (view.viewport.width < 800) {
        // On a phone the navigation is a drawer behind the menu button.
        const menu = page.getByRole("button", { name: "Menu" });
        await menu.click();
        await expect.poll(() => menu.getAttribute("aria-expanded")).toBe("true");
        await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Overview" }).waitFor({ state: "visible" });
        await h.screenshot(page, `navigation.${view.name}`);
        await page.keyboard.press("Escape");
        await expect.poll(() => menu.getAttribute("aria-expanded")).toBe("false");
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 240_000);
});
