import * as oidc from "openid-client";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_LIMITS } from "../accounts/login.js";
import { TestBrowser, formAction } from "./browser.js";
import { obtainEat } from "./eat-helper.js";
import { fakeClock, startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api, discover, runAuthorization } from "./oauth-helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

describe("two-step verification (TOTP) and sign-in protection", () => {
  const clock = fakeClock(Date.now());
  let h: Harness;
  let user: { id: number; email: string | null; password: string; token: string };

  beforeAll(async () => {
    h = await startHarness({ clock });
    const created = await h.createUser({ name: "lee", email: "lee@example.com" });
    user = { ...created, token: h.repos.tokens.create({ user_id: created.id, name: "t", scopes: ["*"] }).token };
  });
  afterAll(async () => {
    await h.close();
  });

  it("enrols, confirms and disables only with an EAT; recovery codes are shown once and stored hashed", async () => {
    const noEat = await api(h.base, "/api/users/@me/two-factor", user.token, { method: "POST" });
    expect(noEat.status).toBe(401);
    expect(noEat.body.code).toBe("OVATION_ERR_IDENTITY_EAT_REQUIRED");
    const eat = await obtainEat(h, user.token, "lee@example.com");

    const started = await api(h.base, "/api/users/@me/two-factor", user.token, { method: "POST", eat });
    expect(started.status).toBe(201);
    expect(String(started.body.otpauth_url)).toMatch(/^otpauth:\/\/totp\/Ovation:lee%40example\.com\?/);
    const totp = new TOTP({ secret: Secret.fromBase32(String(started.body.secret)), digits: 6, period: 30, algorithm: "SHA1" });

    const wrong = await api(h.base, "/api/users/@me/two-factor/confirm", user.token, { body: { code: "000000" === totp.generate({ timestamp: clock() }) ? "111111" : "000000" }, eat });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe("OVATION_ERR_IDENTITY_TOTP_CODE_INVALID");
    expect((await api(h.base, "/api/users/@me/two-factor/confirm", user.token, { body: { code: totp.generate({ timestamp: clock() }) } })).status).toBe(401);

    const confirmed = await api(h.base, "/api/users/@me/two-factor/confirm", user.token, { body: { code: totp.generate({ timestamp: clock() }) }, eat });
    expect(confirmed.status).toBe(200);
    const recovery = confirmed.body.recovery_codes as string[];
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    const stored = JSON.stringify(h.identity.store.data.totp);
    for (const code of recovery) expect(stored).not.toContain(code);
    expect((await api(h.base, "/api/users/@me/two-factor", user.token)).body).toEqual({ enabled: true, recovery_codes_left: 10 });
    expect((await api(h.base, "/api/users/@me", user.token)).body.two_factor_enabled).toBe(true);
    expect((await api(h.base, "/api/users/@me/two-factor", user.token, { method: "POST", eat })).body.code).toBe("OVATION_ERR_IDENTITY_TOTP_ALREADY_ENABLED");

    // Sign-in now asks for a code; the same code is never accepted twice.
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const authorize = () => oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "t", prompt: "login" }).href;
    const browser = new TestBrowser();
    const page = await browser.follow(authorize(), h.base);
    const action = formAction(await page.response.text(), "/login", h.base);
    const withoutCode = await browser.request(action, { form: { email: "lee@example.com", password: user.password, totp: "" } });
    expect(withoutCode.status).toBe(401);
    expect(await withoutCode.text()).toContain("Enter the code from your authenticator app");

    clock.advance(30_000);
    const code = totp.generate({ timestamp: clock() });
    const signedIn = await runAuthorization(new TestBrowser(), h.base, authorize(), { email: "lee@example.com", password: user.password, totp: code });
    expect(new URL(signedIn.callback).searchParams.get("code")).toBeTruthy();
    const replay = await new TestBrowser().follow(authorize(), h.base);
    const replayed = await browser.request(formAction(await replay.response.text(), "/login", h.base), { form: { email: "lee@example.com", password: user.password, totp: code } });
    expect(replayed.status).toBe(401);

    const withRecovery = await runAuthorization(new TestBrowser(), h.base, authorize(), { email: "lee@example.com", password: user.password, totp: recovery[0] ?? "" });
    expect(new URL(withRecovery.callback).searchParams.get("code")).toBeTruthy();
    expect((await api(h.base, "/api/users/@me/two-factor", user.token)).body).toEqual({ enabled: true, recovery_codes_left: 9 });

    // New recovery codes replace the old ones (EAT needed); the old ones no longer sign in.
    expect((await api(h.base, "/api/users/@me/two-factor/recovery-codes", user.token, { method: "POST" })).status).toBe(401);
    const renewed = await api(h.base, "/api/users/@me/two-factor/recovery-codes", user.token, { method: "POST", eat });
    expect(renewed.status).toBe(200);
    const fresh = renewed.body.recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => recovery.includes(c))).toBe(false);
    expect((await api(h.base, "/api/users/@me/two-factor", user.token)).body).toEqual({ enabled: true, recovery_codes_left: 10 });
    const oldCode = await new TestBrowser().follow(authorize(), h.base);
    const refused = await browser.request(formAction(await oldCode.response.text(), "/login", h.base), { form: { email: "lee@example.com", password: user.password, totp: recovery[1] ?? "" } });
    expect(refused.status).toBe(401);

    expect((await api(h.base, "/api/users/@me/two-factor", user.token, { method: "DELETE" })).status).toBe(401);
    expect((await api(h.base, "/api/users/@me/two-factor", user.token, { method: "DELETE", eat })).status).toBe(204);
    expect((await api(h.base, "/api/users/@me/two-factor", user.token)).body).toEqual({ enabled: false, recovery_codes_left: 0 });
    expect((await api(h.base, "/api/users/@me/two-factor", user.token, { method: "DELETE", eat })).body.code).toBe("OVATION_ERR_IDENTITY_TOTP_NOT_ENABLED");
  });

  it("slows (does not lock) a source that keeps failing on an address: 429 with Retry-After, then the right password works", async () => {
    const victim = await h.createUser({ name: "mo", email: "mo@example.com" });
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const browser = new TestBrowser();
    const page = await browser.follow(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "b" }).href, h.base);
    const action = formAction(await page.response.text(), "/login", h.base);
    for (let i = 0; i < SIGN_IN_LIMITS.pair.free; i += 1) {
      expect((await browser.request(action, { form: { email: "mo@example.com", password: `guess number ${i}`, totp: "" } })).status).toBe(401);
    }
    const locked = await browser.request(action, { form: { email: "mo@example.com", password: victim.password, totp: "" } });
    expect(locked.status).toBe(429);
    expect(await locked.text()).toContain("Too many failed sign-ins");
    const retryAfter = Number(locked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_LIMITS.pair.baseMs / 1000);
    clock.advance(retryAfter * 1000);
    const fresh = await new TestBrowser().follow(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "c" }).href, h.base);
    const retry = await browser.request(formAction(await fresh.response.text(), "/login", h.base), { form: { email: "mo@example.com", password: victim.password, totp: "" } });
    expect(retry.status).not.toBe(429);
  });
});
