import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestBrowser } from "./browser.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api, discover, runAuthorization } from "./oauth-helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

describe("OAuth 2.0 authorization server (real HTTP, openid-client)", () => {
  let h: Harness;
  let alice: { id: number; email: string | null; password: string };

  beforeAll(async () => {
    h = await startHarness();
    alice = await h.createUser({ name: "alice", email: "alice@example.com" });
  });
  afterAll(async () => {
    await h.close();
  });

  it("serves discovery with the issuer, endpoints and scopes", async () => {
    const response = await fetch(`${h.base}/oauth/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(`${h.base}/oauth`);
    expect(doc.authorization_endpoint).toBe(`${h.base}/oauth/authorize`);
    expect(doc.token_endpoint).toBe(`${h.base}/oauth/token`);
    expect(doc.code_challenge_methods_supported).toEqual(["S256"]);
    expect(doc.scopes_supported).toEqual(expect.arrayContaining(["user:read", "connections", "chatbot:manage:commands", "*"]));
    expect(doc.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token", "client_credentials"]));
  });

  it("runs authorization code + PKCE for a public client, then refresh (rotating) and revocation", async () => {
    const client = await h.client({ public: true, redirectUris: [REDIRECT] });
    expect(client.client_secret).toBeNull();
    const config = await discover(h.base, client.client_id, null);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "user:read connections",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    const browser = new TestBrowser();
    const { callback, pages } = await runAuthorization(browser, h.base, url.href, { email: "alice@example.com", password: alice.password });
    expect(pages[0]).toContain("Sign in");
    expect(pages[1]).toContain("See the platform accounts linked to your account");
    expect(callback.startsWith(REDIRECT)).toBe(true);

    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.expires_in).toBeGreaterThan(15 * 24 * 3600 - 60);
    expect(tokens.expires_in).toBeLessThanOrEqual(15 * 24 * 3600);
    expect(tokens.scope?.split(" ").sort()).toEqual(["connections", "user:read"]);
    expect(typeof tokens.refresh_token).toBe("string");
    expect(tokens.access_token.split(".")).toHaveLength(3);

    const me = await api(h.base, "/api/users/@me", tokens.access_token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: alice.id, name: "alice", email: "alice@example.com", has_password: true });
    expect(me.body).not.toHaveProperty("password_hash");

    expect((await api(h.base, "/api/users/@me", tokens.refresh_token ?? "")).status).toBe(401);
    expect(await h.identity.tokenVerifier.verify(tokens.refresh_token ?? "")).toBeNull();
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? "");
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await api(h.base, "/api/users/@me", refreshed.access_token)).status).toBe(200);
    // A rotated refresh token is spent.
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toMatchObject({ error: "invalid_grant" });

    await oidc.tokenRevocation(config, refreshed.access_token);
    const after = await api(h.base, "/api/users/@me", refreshed.access_token);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: "Unauthenticated.", code: "OVATION_ERR_IDENTITY_UNAUTHENTICATED" });

    // The code cannot be redeemed twice.
    await expect(oidc.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier, expectedState: state })).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("issues a signed ID token when openid is asked for, verified by openid-client against the JWKS", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid user:read", state: "id", nonce });
    const { callback } = await runAuthorization(new TestBrowser(), h.base, url.href, { email: "alice@example.com", password: alice.password });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: "id", expectedNonce: nonce });
    expect(tokens.claims()).toMatchObject({ sub: String(alice.id), iss: `${h.base}/oauth`, aud: client.client_id });
    expect(JSON.parse(Buffer.from(tokens.id_token?.split(".")[0] ?? "", "base64url").toString("utf8"))).toMatchObject({ alg: "ES256" });
    expect((await api(h.base, "/api/users/@me", tokens.access_token)).status).toBe(200);
  });

  it("refuses a public client without PKCE", async () => {
    const client = await h.client({ public: true, redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, null);
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "s1" });
    const response = await new TestBrowser().request(url.href);
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("error_description")).toMatch(/PKCE/);
  });

  it("runs authorization code with a client secret, introspection and wrong-secret refusal", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    expect(client.client_secret).toMatch(/^ovcs_/);
    const { readFile } = await import("node:fs/promises");
    const stored = await readFile(h.identity.clients.path, "utf8");
    expect(stored).toContain(client.client_id);
    expect(stored).not.toContain(client.client_secret ?? "none");
    const config = await discover(h.base, client.client_id, client.client_secret);
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "*", state: "abc" });
    const { callback } = await runAuthorization(new TestBrowser(), h.base, url.href, { email: "ALICE@example.com", password: alice.password });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: "abc" });
    expect(tokens.scope).toBe("*");
    expect((await api(h.base, "/api/users/@me/connections", tokens.access_token)).status).toBe(200);

    const info = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(info).toMatchObject({ active: true, client_id: client.client_id, sub: String(alice.id), scope: "*" });
    await oidc.tokenRevocation(config, tokens.access_token);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);

    const wrong = await discover(h.base, client.client_id, "ovcs_wrong-secret");
    await expect(oidc.clientCredentialsGrant(wrong, { scope: "alerts:manage" })).rejects.toMatchObject({
      status: 401,
      cause: [{ parameters: { error: "invalid_client", error_description: "client authentication failed" } }],
    });
  });

  it("does not redirect to an unregistered redirect URI", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const url = new URL(`${h.base}/oauth/authorize`);
    url.search = new URLSearchParams({ client_id: client.client_id, redirect_uri: "http://127.0.0.1:9/evil", response_type: "code", scope: "user:read" }).toString();
    const response = await fetch(url, { redirect: "manual" });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(page).toContain("Client authentication failed");
    expect(page).toMatch(/redirect_uri/);
  });

  it("issues app access tokens by client credentials; they carry no user", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: "alerts:manage" });
    expect(tokens.expires_in).toBeGreaterThan(15 * 24 * 3600 - 60);
    expect(tokens.refresh_token).toBeUndefined();
    const me = await api(h.base, "/api/users/@me", tokens.access_token);
    expect(me.status).toBe(403);
    expect(me.body.code).toBe("OVATION_ERR_IDENTITY_USER_TOKEN_REQUIRED");
    expect(await h.identity.tokenVerifier.verify(tokens.access_token)).toBeNull();
    const info = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(info).toMatchObject({ active: true, client_id: client.client_id, scope: "alerts:manage" });
    expect(info.sub).toBeUndefined();
  });

  it("honours prompt=none, prompt=login and prompt=consent", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const browser = new TestBrowser();
    const none = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", prompt: "none", state: "n1" });
    const first = await browser.follow(none.href, h.base);
    expect(new URL(first.url).searchParams.get("error")).toBe("login_required");

    const normal = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "n2" });
    await runAuthorization(browser, h.base, normal.href, { email: "alice@example.com", password: alice.password });

    const silent = await browser.follow(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", prompt: "none", state: "n3" }).href, h.base);
    const silentUrl = new URL(silent.url);
    expect(silentUrl.searchParams.get("error")).toBeNull();
    expect(silentUrl.searchParams.get("code")).toBeTruthy();

    const login = await runAuthorization(browser, h.base, oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", prompt: "login", state: "n4" }).href, {
      email: "alice@example.com",
      password: alice.password,
    });
    expect(login.pages).toHaveLength(1);
    expect(login.pages[0]).toContain("Sign in");

    const consent = await runAuthorization(browser, h.base, oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", prompt: "consent", state: "n5" }).href, null);
    expect(consent.pages).toHaveLength(1);
    expect(consent.pages[0]).toContain("Authorize");

    const denied = await runAuthorization(browser, h.base, oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", prompt: "consent", state: "n6" }).href, null, { consent: "deny" });
    expect(new URL(denied.callback).searchParams.get("error")).toBe("access_denied");
  });

  it("signs out of the authorization server and the identity session together", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const browser = new TestBrowser();
    await runAuthorization(browser, h.base, oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "o1" }).href, {
      email: "alice@example.com",
      password: alice.password,
    });
    expect(browser.cookie("ovation_session")).toBeTruthy();
    const confirm = await browser.request(`${h.base}/oauth/logout`);
    expect(confirm.status).toBe(200);
    const html = await confirm.text();
    expect(html).toContain("Sign out?");
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? "";
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const done = await browser.request(new URL(action, h.base).href, { form: { xsrf, logout: "yes" } });
    expect(done.status).toBe(303);
    expect(browser.cookie("ovation_session")).toBeUndefined();
    const after = await browser.follow(new URL(done.headers.get("location") ?? "", h.base).href, h.base);
    expect(await after.response.text()).toContain("You are signed out.");
    const silent = await browser.follow(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", prompt: "none", state: "o2" }).href, h.base);
    expect(new URL(silent.url).searchParams.get("error")).toBe("login_required");
  });

  it("answers a wrong password on the sign-in page without revealing which part was wrong", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const browser = new TestBrowser();
    const start = await browser.follow(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "w" }).href, h.base);
    const html = await start.response.text();
    const action = /action="([^"]*\/login)"/.exec(html)?.[1] ?? "";
    const wrongPassword = await browser.request(new URL(action, h.base).href, { form: { email: "alice@example.com", password: "not the password", totp: "" } });
    const unknownUser = await browser.request(new URL(action, h.base).href, { form: { email: "nobody@example.com", password: "not the password", totp: "" } });
    expect(wrongPassword.status).toBe(401);
    expect(unknownUser.status).toBe(401);
    const a = await wrongPassword.text();
    const b = await unknownUser.text();
    expect(a).toContain("These credentials do not match our records.");
    expect(b).toContain("These credentials do not match our records.");
    expect(a).toContain('role="alert"');
  });

  it("enforces scopes on the identity API (403 names the missing scope)", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const { callback } = await runAuthorization(new TestBrowser(), h.base, oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "sc" }).href, {
      email: "alice@example.com",
      password: alice.password,
    });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: "sc" });
    const connections = await api(h.base, "/api/users/@me/connections", tokens.access_token);
    expect(connections.status).toBe(403);
    expect(connections.body).toMatchObject({ code: "OVATION_ERR_IDENTITY_MISSING_SCOPE", missing_scopes: ["connections"] });
    const principal = await h.identity.tokenVerifier.verify(tokens.access_token);
    expect(principal).toMatchObject({ userId: alice.id, scopes: ["user:read"], kind: "oauth_access_token" });
  });

  it("does not refresh personal access tokens (6 months, then a new one is needed)", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const pat = h.repos.tokens.create({ user_id: alice.id, name: "cli", scopes: ["user:read"] });
    expect((await api(h.base, "/api/users/@me", pat.token)).status).toBe(200);
    await expect(oidc.refreshTokenGrant(config, pat.token)).rejects.toMatchObject({ error: "invalid_grant" });
    expect((await oidc.tokenIntrospection(config, pat.token)).active).toBe(false);
    const months = (Date.parse(pat.record.expires_at) - Date.parse(pat.record.created_at)) / (24 * 3600 * 1000);
    expect(months).toBeGreaterThan(180);
    expect(months).toBeLessThan(186);
  });

  it("keeps tokens hashed at rest in identity.json", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: "alerts:manage" });
    const { readFile } = await import("node:fs/promises");
    const file = await readFile(h.identity.store.path, "utf8");
    expect(file).not.toContain(tokens.access_token);
    expect(file).not.toContain('"jti"');
  });
});
