import * as oidc from "openid-client";
import { Secret, TOTP } from "otpauth";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../__tests__/services/chromium.js";
import { obtainEat } from "./eat-helper.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api, discover } from "./oauth-helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

/** A browser context whose requests to the client's redirect URI are answered locally and recorded. */
async function appContext(browser: Browser): Promise<{ context: BrowserContext; page: Page; callbacks: string[]; consoleErrors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const callbacks: string[] = [];
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  await context.route(`${REDIRECT}**`, async (route) => {
    callbacks.push(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/plain", body: "back in the app" });
  });
  return { context, page, callbacks, consoleErrors };
}

/** Whether the browser's cookies still get a code without any page (`prompt=none`). */
async function silentAuthorization(context: BrowserContext, base: string, url: string): Promise<URLSearchParams> {
  const cookie = (await context.cookies(base)).map((c) => `${c.name}=${c.value}`).join("; ");
  const response = await fetch(url, { headers: { cookie }, redirect: "manual" });
  return new URL(response.headers.get("location") ?? "http://invalid/").searchParams;
}

describe("identity sessions and pages in Chromium (issue 20)", () => {
  let h: Harness;
  let browser: Browser;
  let config: oidc.Configuration;
  const silent = () => oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "s", prompt: "none" }).href;

  beforeAll(async () => {
    h = await startHarness();
    const client = await h.client({ redirectUris: [REDIRECT] });
    config = await discover(h.base, client.client_id, client.client_secret);
    // The full browser: the redirect to the client's redirect URI is answered by a route (see launchChromium).
    browser = await launchChromium({ fullBrowser: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  async function signIn(page: Page, callbacks: string[], email: string, password: string): Promise<void> {
    await page.goto(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "in" }).href);
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect.poll(() => callbacks.length, { timeout: 30_000 }).toBeGreaterThan(0);
    // The callback page must have finished loading, or the next page.goto interrupts its navigation.
    await page.waitForURL(`${REDIRECT}**`, { waitUntil: "load", timeout: 30_000 });
  }

  it("a password change signs out every other browser, including the authorization server's session", async () => {
    const user = await h.createUser({ name: "pam", email: "pam@example.com" });
    const token = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] }).token;
    const { context, page, callbacks } = await appContext(browser);
    await signIn(page, callbacks, "pam@example.com", user.password);
    expect((await silentAuthorization(context, h.base, silent())).get("code")).toBeTruthy();

    const eat = await obtainEat(h, token, "pam@example.com");
    const changed = await api(h.base, "/api/users/@me/password", token, { body: { current_password: user.password, password: "a completely new passphrase" }, eat });
    expect(changed.status).toBe(200);
    expect((await silentAuthorization(context, h.base, silent())).get("error")).toBe("login_required");
    await context.close();
  }, 120_000);

  it("turning two-step verification off signs every browser out too", async () => {
    const user = await h.createUser({ name: "tia", email: "tia@example.com" });
    const token = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] }).token;
    const eat = await obtainEat(h, token, "tia@example.com");
    const started = await api(h.base, "/api/users/@me/two-factor", token, { method: "POST", eat });
    const totp = new TOTP({ secret: Secret.fromBase32(String(started.body.secret)), digits: 6, period: 30, algorithm: "SHA1" });
    expect((await api(h.base, "/api/users/@me/two-factor/confirm", token, { body: { code: totp.generate() }, eat })).status).toBe(200);

    // A wrong code: the error sits under the code field, the password stays filled in.
    const { context, page, callbacks } = await appContext(browser);
    await page.goto(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "in" }).href);
    await page.getByLabel("Email address").fill("tia@example.com");
    await page.getByLabel("Password").fill(user.password);
    const current = totp.generate();
    await page.getByLabel(/Authenticator code/).fill(current === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.locator("#totp-error").textContent(), { timeout: 30_000 }).toBe("The authenticator code is invalid.");
    expect(await page.getByLabel(/Authenticator code/).getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Password").getAttribute("aria-invalid")).toBeNull();
    expect(await page.getByLabel("Password").inputValue()).toBe(user.password);
    // The enrolment used this time step's code, and a code is never accepted twice: use the next one.
    await page.getByLabel(/Authenticator code/).fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect.poll(() => callbacks.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect((await silentAuthorization(context, h.base, silent())).get("code")).toBeTruthy();

    expect((await api(h.base, "/api/users/@me/two-factor", token, { method: "DELETE", eat })).status).toBe(204);
    expect((await silentAuthorization(context, h.base, silent())).get("error")).toBe("login_required");
    await context.close();
  }, 120_000);

  it("'No, stay signed in' keeps the user signed in and says so; 'Yes' signs out", async () => {
    const user = await h.createUser({ name: "noa", email: "noa@example.com" });
    const { context, page, callbacks } = await appContext(browser);
    await signIn(page, callbacks, "noa@example.com", user.password);

    await page.goto(`${h.base}/oauth/logout`);
    await page.getByRole("button", { name: "No, stay signed in" }).click();
    await page.getByRole("heading", { name: "Still signed in" }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole("status").textContent()).toContain("You are still signed in");
    expect((await silentAuthorization(context, h.base, silent())).get("code")).toBeTruthy();
    expect(h.identity.userOfSessionCookie((await context.cookies(h.base)).map((c) => `${c.name}=${c.value}`).join("; "))).toBe(user.id);

    await page.goto(`${h.base}/oauth/logout`);
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await page.getByRole("heading", { name: "Signed out" }).waitFor({ timeout: 30_000 });
    expect((await silentAuthorization(context, h.base, silent())).get("error")).toBe("login_required");
    await context.close();
  }, 120_000);

  it("/oauth/logout without a session finishes under the page's CSP (no blank 'Submitting Callback' page)", async () => {
    const { context, page, consoleErrors } = await appContext(browser);
    await page.goto(`${h.base}/oauth/logout`);
    await page.getByRole("heading", { name: "Signed out" }).waitFor({ timeout: 30_000 });
    expect(consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    await context.close();
  }, 120_000);

  it("serves /, /signup, /favicon.ico and a stale sign-in step as pages, with nothing in the console", async () => {
    const { context, page, consoleErrors } = await appContext(browser);
    const home = await page.goto(`${h.base}/`);
    expect(home?.status()).toBe(200);
    expect(home?.headers()["content-type"]).toContain("text/html");
    await page.getByRole("heading", { name: "Ovation account" }).waitFor();
    const signup = await page.goto(`${h.base}/signup`);
    expect(signup?.status()).toBe(200);
    await page.getByRole("heading", { name: "Create an account" }).waitFor();
    const favicon = await fetch(`${h.base}/favicon.ico`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get("content-type")).toContain("image/svg+xml");
    await page.goto(`${h.base}/oauth/interaction/unknown-uid/login`);
    expect(await page.title()).toBe("Sign-in expired · Ovation");
    await page.getByRole("heading", { name: "Sign-in expired" }).waitFor();
    // The 400 of the stale step is the only console line; the favicon and pages load cleanly.
    expect(consoleErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await context.close();
  }, 120_000);
});
