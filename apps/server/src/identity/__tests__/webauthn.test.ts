import * as oidc from "openid-client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../__tests__/services/chromium.js";
import { TestBrowser, formAction } from "./browser.js";
import { obtainEat } from "./eat-helper.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api, discover } from "./oauth-helpers.js";

const REDIRECT = "http://localhost:9/callback";

interface RegisterResult {
  status: number;
  body: Record<string, unknown>;
  response: unknown;
}

/** Runs in the page: asks for options, creates a credential with the (virtual) authenticator, posts it. */
async function registerInPage(page: Page, token: string, eat: string): Promise<RegisterResult> {
  return page.evaluate(
    async ({ token, eat }) => {
      const headers = { authorization: `Bearer ${token}`, "elevated-access-token": eat, "content-type": "application/json" };
      const optionsResponse = await fetch("/api/users/@me/webauthn/options", { method: "POST", headers, body: "{}" });
      const opts = (await optionsResponse.json()) as {
        challenge: string;
        user: { id: string; name: string; displayName: string };
        excludeCredentials?: { id: string; type: string }[];
        [key: string]: unknown;
      };
      const fromB64 = (s: string) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
      const toB64 = (buf: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      const publicKey = {
        ...opts,
        challenge: fromB64(opts.challenge),
        user: { ...opts.user, id: fromB64(opts.user.id) },
        excludeCredentials: (opts.excludeCredentials ?? []).map((c) => ({ ...c, id: fromB64(c.id) })),
      };
      // The page's DOM types, declared here because the server's TypeScript program has no DOM lib.
      type Credential = {
        id: string;
        rawId: ArrayBuffer;
        type: string;
        response: { clientDataJSON: ArrayBuffer; attestationObject: ArrayBuffer; getTransports(): string[] };
        getClientExtensionResults(): unknown;
      };
      const { navigator } = globalThis as unknown as { navigator: { credentials: { create(options: unknown): Promise<Credential> } } };
      const credential = await navigator.credentials.create({ publicKey });
      const attestation = credential.response;
      const json = {
        id: credential.id,
        rawId: toB64(credential.rawId),
        type: credential.type,
        response: { clientDataJSON: toB64(attestation.clientDataJSON), attestationObject: toB64(attestation.attestationObject), transports: attestation.getTransports() },
        clientExtensionResults: credential.getClientExtensionResults(),
      };
      const result = await fetch("/api/users/@me/webauthn", { method: "POST", headers, body: JSON.stringify({ name: "YubiKey 5", response: json }) });
      return { status: result.status, body: (await result.json()) as Record<string, unknown>, response: json };
    },
    { token, eat },
  );
}

describe("hardware keys (WebAuthn) with Chromium's virtual authenticator", () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let user: { id: number; token: string; password: string };

  beforeAll(async () => {
    h = await startHarness({ hostname: "localhost" });
    const created = await h.createUser({ name: "pia", email: "pia@example.com" });
    user = { id: created.id, password: created.password, token: h.repos.tokens.create({ user_id: created.id, name: "t", scopes: ["*"] }).token };
    // The full browser: the redirect to the client's redirect URI is answered by a route (see launchChromium).
    browser = await launchChromium({ fullBrowser: true });
    const context = await browser.newContext();
    page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "usb", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    // Any same-origin document will do as the page of the registration (identity HTML pages forbid
    // scripts' network calls by CSP, so take the JSON discovery document).
    await page.goto(`${h.base}/oauth/.well-known/openid-configuration`);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it("registers a key only with an EAT, refuses a replayed response, signs in with it, lists and removes it", async () => {
    const noEat = await api(h.base, "/api/users/@me/webauthn/options", user.token, { method: "POST", body: {} });
    expect(noEat.status).toBe(401);
    expect(noEat.body.code).toBe("OVATION_ERR_IDENTITY_EAT_REQUIRED");

    const eat = await obtainEat(h, user.token, "pia@example.com");
    const registered = await registerInPage(page, user.token, eat);
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ name: "YubiKey 5" });
    const keyId = String(registered.body.id);

    const list = await api(h.base, "/api/users/@me/webauthn", user.token);
    expect(list.body).toEqual([expect.objectContaining({ id: keyId, name: "YubiKey 5" })]);
    expect(h.identity.store.data.webauthn_credentials[0]?.public_key.length).toBeGreaterThan(40);

    const replay = await api(h.base, "/api/users/@me/webauthn", user.token, { body: { name: "again", response: registered.response }, eat });
    expect(replay.status).toBe(422);
    expect(replay.body.code).toBe("OVATION_ERR_IDENTITY_WEBAUTHN_FAILED");

    const withoutEat = await api(h.base, "/api/users/@me/webauthn", user.token, { body: { name: "x", response: registered.response } });
    expect(withoutEat.status).toBe(401);

    const malformed = await api(h.base, "/api/users/@me/webauthn", user.token, { body: { name: "x", response: { id: 1 } }, eat });
    expect(malformed.status).toBe(422);
    expect(malformed.body.code).toBe("OVATION_ERR_IDENTITY_VALIDATION");

    // Signing in now asks for the key after the password; the virtual authenticator answers.
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    let callback = "";
    await page.route(`${REDIRECT}**`, async (route) => {
      callback = route.request().url();
      await route.fulfill({ status: 200, contentType: "text/plain", body: "back in the app" });
    });
    await page.goto(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "key" }).href);
    await page.getByLabel("Email address").fill("pia@example.com");
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Authorize Test app" }).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Allow" }).click();
    await expect.poll(() => callback, { timeout: 30_000 }).not.toBe("");
    expect(new URL(callback).searchParams.get("code")).toBeTruthy();
    expect(h.identity.store.data.webauthn_credentials[0]?.counter).toBeGreaterThanOrEqual(0);
    expect(h.identity.store.data.pending_key_logins).toEqual([]);

    // Without the key the password alone does not finish the sign-in.
    const withoutKey = new TestBrowser();
    const start = await withoutKey.follow(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "nokey" }).href, h.base);
    const keyStep = await withoutKey.request(formAction(await start.response.text(), "/login", h.base), { form: { email: "pia@example.com", password: user.password, totp: "" } });
    expect(keyStep.status).toBe(200);
    const keyPage = await keyStep.text();
    expect(keyPage).toContain("Use your security key");
    const forged = await withoutKey.request(formAction(keyPage, "/security-key", h.base), { form: { assertion: JSON.stringify({ id: keyId, rawId: keyId, type: "public-key", response: {}, clientExtensionResults: {} }) } });
    expect(forged.status).toBe(401);
    expect(await forged.text()).toContain("could not be verified");

    // A key that never answers (no presence): pressing the button again cancels the waiting
    // request instead of failing with OperationError, and "Go back" is a link to the sign-in step.
    const slowContext = await browser.newContext();
    const slowPage = await slowContext.newPage();
    const slowCdp = await slowContext.newCDPSession(slowPage);
    await slowCdp.send("WebAuthn.enable");
    await slowCdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "usb", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: false },
    });
    await slowPage.goto(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "slow" }).href);
    await slowPage.getByLabel("Email address").fill("pia@example.com");
    await slowPage.getByLabel("Password").fill(user.password);
    await slowPage.getByRole("button", { name: "Sign in" }).click();
    await slowPage.getByRole("heading", { name: "Use your security key" }).waitFor({ timeout: 30_000 });
    await expect.poll(() => slowPage.locator("#key-status").textContent(), { timeout: 10_000 }).toBe("Waiting for your security key\u2026");
    await slowPage.getByRole("button", { name: "Use security key" }).click();
    await slowPage.getByRole("button", { name: "Use security key" }).click();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await slowPage.locator("#key-status").textContent()).toBe("Waiting for your security key\u2026");
    const back = slowPage.getByRole("link", { name: "Go back" });
    expect(await back.getAttribute("href")).toMatch(/^\/oauth\/interaction\/[^/]+$/);
    await back.click();
    await slowPage.getByRole("heading", { name: "Sign in" }).waitFor({ timeout: 30_000 });
    await slowContext.close();

    // Removing a key signs every browser out: the earlier sign-in no longer gets a code silently.
    expect((await api(h.base, `/api/users/@me/webauthn/${keyId}`, user.token, { method: "DELETE" })).status).toBe(401);
    expect((await api(h.base, `/api/users/@me/webauthn/${keyId}`, user.token, { method: "DELETE", eat })).status).toBe(204);
    expect((await api(h.base, `/api/users/@me/webauthn/${keyId}`, user.token, { method: "DELETE", eat })).status).toBe(404);
    expect((await api(h.base, "/api/users/@me/webauthn", user.token)).body).toEqual([]);
    const cookie = (await page.context().cookies(h.base)).map((c) => `${c.name}=${c.value}`).join("; ");
    expect(cookie).toContain("_ovation_oidc_session=");
    const silent = await fetch(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "after", prompt: "none" }).href, { headers: { cookie }, redirect: "manual" });
    expect(new URL(silent.headers.get("location") ?? "").searchParams.get("error")).toBe("login_required");
    expect(h.identity.userOfSessionCookie(cookie)).toBeNull();
  }, 120_000);
});
