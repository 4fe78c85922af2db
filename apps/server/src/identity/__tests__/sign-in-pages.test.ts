import * as oidc from "openid-client";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../__tests__/services/chromium.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { discover } from "./oauth-helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

describe("sign-in and consent pages in a real browser", () => {
  let h: Harness;
  let browser: Browser;

  beforeAll(async () => {
    h = await startHarness();
    await h.createUser({ name: "quinn", email: "quinn@example.com", password: "quinn's long passphrase" });
    // The full browser: the redirect to the client's redirect URI is answered by a route (see launchChromium).
    browser = await launchChromium({ fullBrowser: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it("signs in by labelled fields, shows the error accessibly, approves consent and reaches the app with a code", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read alerts:manage", state: "pw" });
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    let callback = "";
    await page.route(`${REDIRECT}**`, async (route) => {
      callback = route.request().url();
      await route.fulfill({ status: 200, contentType: "text/plain", body: "back in the app" });
    });
    const first = await page.goto(url.href);
    expect(await page.title()).toBe("Sign in · Ovation");
    const headers = first?.headers() ?? {};
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(await page.getAttribute("html", "lang")).toBe("en");

    await page.getByLabel("Email address").fill("quinn@example.com");
    await page.getByLabel("Password").fill("wrong password!");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent(), { timeout: 30_000 }).toContain("These credentials do not match our records.");
    expect(await page.getByLabel("Email address").inputValue()).toBe("quinn@example.com");
    // The error sits under the password field, which is the one marked invalid (the email is kept).
    expect(await page.getByLabel("Password").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(`#${await page.getByLabel("Password").getAttribute("aria-describedby")}`).textContent()).toBe("These credentials do not match our records.");
    expect(await page.getByLabel("Email address").getAttribute("aria-invalid")).toBeNull();

    await page.getByLabel("Password").fill("quinn's long passphrase");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Authorize Test app" }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole("listitem").allTextContents()).toEqual(["Read your profile (name, email address, avatar) (user:read)", "Trigger and configure your alerts (alerts:manage)"]);
    await page.getByRole("button", { name: "Allow" }).click();
    await expect.poll(() => callback, { timeout: 30_000 }).not.toBe("");
    expect(new URL(callback).searchParams.get("code")).toBeTruthy();
    expect(new URL(callback).searchParams.get("state")).toBe("pw");
    // No external assets: every request stayed on the identity host (or went to the app's redirect URI).
    expect(requests.filter((r) => !r.startsWith(h.base) && !r.startsWith(REDIRECT))).toEqual([]);
    const cookies = await page.context().cookies(h.base);
    const session = cookies.find((c) => c.name === "ovation_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false });
  }, 120_000);
});
