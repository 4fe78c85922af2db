import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD_RESET_RULES } from "../accounts/password-reset.js";
import { verifyPassword } from "../accounts/passwords.js";
import { TestBrowser, formAction } from "./browser.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { discover, runAuthorization } from "./oauth-helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

describe("password reset by mail (issue 20: a reset ends every session)", () => {
  let h: Harness;
  let config: oidc.Configuration;

  beforeAll(async () => {
    h = await startHarness();
    const client = await h.client({ redirectUris: [REDIRECT] });
    config = await discover(h.base, client.client_id, client.client_secret);
  });
  afterAll(async () => {
    await h.close();
  });

  const silent = () => oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "s", prompt: "none" }).href;
  const forgot = (browser: TestBrowser, email: string) => browser.request(`${h.base}/password/forgot`, { form: { email } });

  it("mails a one-time link; its page changes nothing; the POST sets the password and signs every browser out", async () => {
    const user = await h.createUser({ name: "rex", email: "rex@example.com" });
    const signedIn = new TestBrowser();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "in" }).href;
    const { pages } = await runAuthorization(signedIn, h.base, url, { email: "rex@example.com", password: user.password });
    expect(pages[0]).toContain('href="/password/forgot"');
    expect(new URL((await signedIn.follow(silent(), h.base)).url).searchParams.get("code")).toBeTruthy();

    const other = new TestBrowser();
    const form = await other.request(`${h.base}/password/forgot`);
    expect(formAction(await form.text(), "/password/forgot", h.base)).toBe(`${h.base}/password/forgot`);
    const known = await forgot(other, "REX@example.com");
    const unknown = await forgot(other, "nobody@example.com");
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(await known.text()).toBe(await unknown.text());
    const link = /(http:\/\/\S+\/password\/reset\?token=\S+)/.exec((await h.smtp.waitFor("rex@example.com")).text)?.[1] ?? "";
    expect(link.startsWith(`${h.base}/password/reset?token=`)).toBe(true);
    expect(h.smtp.mails.some((m) => m.to.includes("nobody@example.com"))).toBe(false);

    const opened = await other.request(link);
    expect(opened.status).toBe(200);
    const token = new URL(link).searchParams.get("token") ?? "";
    const weak = await other.request(`${h.base}/password/reset`, { form: { token, password: "short" } });
    expect(weak.status).toBe(422);
    expect(await weak.text()).toContain("at least 10 characters");
    const done = await other.request(`${h.base}/password/reset`, { form: { token, password: "a fresh reset passphrase" } });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Password changed");
    expect(await verifyPassword(h.repos.users.get(user.id)?.password_hash ?? "", "a fresh reset passphrase")).toBe(true);

    // The link worked once, and the browser signed in before is signed out.
    expect((await other.request(`${h.base}/password/reset`, { form: { token, password: "another fresh passphrase" } })).status).toBe(400);
    expect(new URL((await signedIn.follow(silent(), h.base)).url).searchParams.get("error")).toBe("login_required");
    expect(JSON.stringify(h.identity.store.data.password_resets)).not.toContain(token);
  });

  it("limits reset mails per address (429 with Retry-After)", async () => {
    await h.createUser({ name: "lim", email: "lim@example.com" });
    const browser = new TestBrowser();
    for (let i = 0; i < PASSWORD_RESET_RULES.perAddress; i += 1) expect((await forgot(browser, "lim@example.com")).status).toBe(200);
    const limited = await forgot(browser, "lim@example.com");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
