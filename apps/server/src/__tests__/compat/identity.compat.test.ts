// Wire compatibility of the identity module with the reference's clients (issue 12, "Identity"):
// each request is sent the way the reference's documentation and client libraries send it.
import { createRemoteJWKSet, jwtVerify } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestBrowser, followAcross } from "../../identity/__tests__/browser.js";
import { obtainEat } from "../../identity/__tests__/eat-helper.js";
import { startFakeTwitch } from "../../identity/__tests__/fake-twitch.js";
import { startHarness } from "../../identity/__tests__/harness.js";
import type { Harness } from "../../identity/__tests__/harness.js";
import { discover, runAuthorization } from "../../identity/__tests__/oauth-helpers.js";
import { defaultPlatformSettings } from "../../identity/platforms/settings.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const TWITCH = { clientId: "fake-twitch-client", clientSecret: "fake-twitch-secret" };

describe("identity: documented request examples, sent as written", () => {
  let h: Harness;
  let twitch: Awaited<ReturnType<typeof startFakeTwitch>>;
  let user: { id: number; email: string | null; password: string };
  let client: { client_id: string; client_secret: string | null };

  beforeAll(async () => {
    twitch = await startFakeTwitch(TWITCH);
    const settings = defaultPlatformSettings("twitch", TWITCH);
    if (settings === null) throw new Error("no twitch settings");
    h = await startHarness({ platforms: [{ ...settings, authorizeUrl: `${twitch.base}/oauth2/authorize`, tokenUrl: `${twitch.base}/oauth2/token`, userInfoUrl: `${twitch.base}/helix/users` }] });
    user = await h.createUser({ name: "ghostzero", email: "ghostzero@example.com" });
    client = await h.client({ redirectUris: [REDIRECT] });
  });
  afterAll(async () => {
    await h.close();
    await twitch.close();
  });

  /** Runs the browser part of an authorization request (the `/oauth/authorize` redirect of the docs) and returns the code. */
  async function code(query: Record<string, string>, browser = new TestBrowser()): Promise<string> {
    const url = new URL(`${h.base}/oauth/authorize`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const { callback } = await runAuthorization(browser, h.base, url.href, { email: "ghostzero@example.com", password: user.password });
    const found = new URL(callback).searchParams.get("code");
    if (found === null) throw new Error(`no code: ${callback}`);
    return found;
  }

  const authorizeQuery = () => ({ client_id: client.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "user:read connections", state: "40-random-chars-state-value-from-session" });

  async function tokenJson(body: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${h.base}/oauth/token`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json", ...headers }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("POST /oauth/token as JSON (Laravel's HTTP client), secret in the body; refresh as JSON; the token is an RS256 JWT verifiable with /.well-known/jwks.json", async () => {
    const issued = await tokenJson({ grant_type: "authorization_code", client_id: client.client_id, client_secret: client.client_secret ?? "", redirect_uri: REDIRECT, code: await code(authorizeQuery()) });
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ token_type: "Bearer", expires_in: expect.any(Number), access_token: expect.any(String), refresh_token: expect.any(String) });
    const jwks = createRemoteJWKSet(new URL(`${h.base}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(String(issued.body.access_token), jwks, { algorithms: ["RS256"] });
    expect(payload).toMatchObject({ sub: String(user.id), aud: client.client_id, scopes: ["user:read", "connections"] });
    expect(typeof payload.jti).toBe("string");
    expect(typeof payload.exp).toBe("number");

    const refreshed = await tokenJson({ grant_type: "refresh_token", refresh_token: String(issued.body.refresh_token), client_id: client.client_id, client_secret: client.client_secret ?? "", scope: "" });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(issued.body.access_token);
  });

  it("POST /oauth/token as multipart form data (a desktop client) and as form-encoded with HTTP Basic", async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ grant_type: "authorization_code", client_id: client.client_id, client_secret: client.client_secret ?? "", redirect_uri: REDIRECT, code: await code(authorizeQuery()) })) form.append(k, v);
    const multipart = await fetch(`${h.base}/oauth/token`, { method: "POST", body: form });
    expect(multipart.status).toBe(200);
    expect((await multipart.json()) as Record<string, unknown>).toHaveProperty("access_token");

    const basic = Buffer.from(`${client.client_id}:${client.client_secret ?? ""}`).toString("base64");
    const encoded = await fetch(`${h.base}/oauth/token`, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", redirect_uri: REDIRECT, code: await code(authorizeQuery()) }).toString(),
    });
    expect(encoded.status).toBe(200);

    const badJson = await fetch(`${h.base}/oauth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error: "invalid_request" });
  });

  it("PKCE example: scope \"\" is accepted (no API scopes), never access_denied", async () => {
    const pkceClient = await h.client({ public: true, redirectUris: [REDIRECT] });
    const verifier = oidc.randomPKCECodeVerifier();
    const challenge = await oidc.calculatePKCECodeChallenge(verifier);
    const issued = await tokenJson({
      grant_type: "authorization_code",
      client_id: pkceClient.client_id,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      code: await code({ client_id: pkceClient.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "", state: "s", code_challenge: challenge, code_challenge_method: "S256" }),
    });
    expect(issued.status).toBe(200);
  });

  it("GET /api/users (Socialite), GET /api/users/@me, POST /api/users/@me/update-email?email=... with no body", async () => {
    const issued = await tokenJson({ grant_type: "authorization_code", client_id: client.client_id, client_secret: client.client_secret ?? "", redirect_uri: REDIRECT, code: await code({ ...authorizeQuery(), scope: "user:read user:manage connections" }) });
    const token = String(issued.body.access_token);
    const users = await fetch(`${h.base}/api/users`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
    expect(users.status).toBe(200);
    expect(await users.json()).toMatchObject({ id: user.id, name: "ghostzero", email: "ghostzero@example.com", avatar: null });
    const me = await fetch(`${h.base}/api/users/@me`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
    expect(await me.json()).toMatchObject({ id: user.id, name: "ghostzero" });

    const eat = await obtainEat(h, token, "ghostzero@example.com");
    const update = await fetch(`${h.base}/api/users/@me/update-email?email=${encodeURIComponent("ghostzero.dev@example.com")}`, { method: "POST", headers: { authorization: `Bearer ${token}`, accept: "application/json", "elevated-access-token": eat } });
    expect(update.status).toBe(202);
    expect(await update.json()).toMatchObject({ email: "ghostzero.dev@example.com" });
    expect((await h.smtp.waitFor("ghostzero.dev@example.com")).subject).toBe("Confirm your email address");
    // Laravel's HTTP client posts `[]` as JSON when there is no data.
    const emptyJson = await fetch(`${h.base}/api/users/@me/update-email?email=${encodeURIComponent("ghostzero.dev@example.com")}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json", "elevated-access-token": eat },
      body: "[]",
    });
    expect(emptyJson.status).toBe(202);
  });

  it("GET /oauth/{provider}?continue= links a platform; connections have the documented record and ?platform= filters; GET /logout?continue= signs out", async () => {
    const browser = new TestBrowser();
    const issued = await tokenJson({ grant_type: "authorization_code", client_id: client.client_id, client_secret: client.client_secret ?? "", redirect_uri: REDIRECT, code: await code({ ...authorizeQuery(), scope: "user:read connections" }, browser) });
    const token = String(issued.body.access_token);
    const after = "http://127.0.0.1:9/settings/connections";
    const done = await followAcross(browser, `${h.base}/oauth/twitch?continue=${encodeURIComponent(after)}`, "http://127.0.0.1:9/");
    expect(done.url).toBe(after);

    const list = await fetch(`${h.base}/api/users/@me/connections?platform=twitch`, { headers: { authorization: `Bearer ${token}` } });
    const records = (await list.json()) as Record<string, unknown>[];
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ user_id: user.id, platform: "twitch", platform_id: "106415581", scopes: ["user:read:email"], expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), platform_name: "Twitch", platform_login: "streamer_sam", display_name: "streamer_sam" });
    for (const key of ["id", "created_at", "updated_at"]) expect(records[0]).toHaveProperty(key);
    expect(await (await fetch(`${h.base}/api/users/@me/connections?platform=tiktok`, { headers: { authorization: `Bearer ${token}` } })).json()).toEqual([]);
    const unknown = await fetch(`${h.base}/api/users/@me/connections?platform=myspace`, { headers: { authorization: `Bearer ${token}` } });
    expect([unknown.status, await unknown.json()]).toEqual([200, []]);

    expect(h.identity.userOfSessionCookie(browser.cookieHeader())).toBe(user.id);
    const out = await browser.request(`${h.base}/logout?continue=${encodeURIComponent("http://127.0.0.1:9/bye")}`);
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("http://127.0.0.1:9/bye");
    expect(h.identity.userOfSessionCookie(browser.cookieHeader())).toBeNull();
    const silent = await browser.request(oidc.buildAuthorizationUrl(await discover(h.base, client.client_id, client.client_secret), { redirect_uri: REDIRECT, scope: "user:read", state: "n", prompt: "none" }).href);
    expect(new URL(silent.headers.get("location") ?? "").searchParams.get("error")).toBe("login_required");
    // A continue address outside this host and the registered apps is not followed.
    const elsewhere = await new TestBrowser().request(`${h.base}/logout?continue=${encodeURIComponent("https://evil.example/")}`);
    expect(elsewhere.status).toBe(200);
    expect(await elsewhere.text()).toContain("You are signed out");
  });
});
