import { createRemoteJWKSet, jwtVerify } from "jose";
import * as oidc from "openid-client";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freshDatabase, sharedPostgres } from "../../__tests__/services/postgres.js";
import { TestBrowser } from "../../identity/__tests__/browser.js";
import { obtainEat } from "../../identity/__tests__/eat-helper.js";
import { startHarness } from "../../identity/__tests__/harness.js";
import type { Harness } from "../../identity/__tests__/harness.js";
import { api, discover, runAuthorization } from "../../identity/__tests__/oauth-helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

describe("the identity module's OAuth artifacts in PostgreSQL (OVATION_DATABASE_URL)", () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    await sharedPostgres();
    url = await freshDatabase();
    h = await startHarness({ databaseUrl: url });
  }, 120_000);
  afterAll(() => h.close());

  async function rows(): Promise<Array<{ model: string; key: string; payload: string }>> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<{ model: string; key: string; payload: string }>("select model, key, payload::text as payload from ovation_oidc")).rows;
    } finally {
      await client.end();
    }
  }

  test("authorization code + PKCE, refresh and revocation run on the database; no raw token is stored", async () => {
    const alice = await h.createUser({ name: "alice", email: "alice@example.com" });
    const client = await h.client({ public: true, redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, null);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorize = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state });
    const { callback } = await runAuthorization(new TestBrowser(), h.base, authorize.href, { email: "alice@example.com", password: alice.password });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier, expectedState: state });
    expect((await api(h.base, "/api/users/@me", tokens.access_token)).body).toMatchObject({ id: alice.id });

    const stored = await rows();
    expect(stored.map((r) => r.model)).toEqual(expect.arrayContaining(["Session", "Grant", "AccessToken", "RefreshToken", "AuthorizationCode"]));
    const text = JSON.stringify(stored);
    for (const secret of [tokens.access_token, tokens.refresh_token ?? "none"]) expect(text).not.toContain(secret);

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? "");
    expect((await api(h.base, "/api/users/@me", refreshed.access_token)).status).toBe(200);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toMatchObject({ error: "invalid_grant" });
    await oidc.tokenRevocation(config, refreshed.access_token);
    expect((await api(h.base, "/api/users/@me", refreshed.access_token)).status).toBe(401);
  });

  test("access tokens are RS256 JWTs found by their jti in the database; a password change ends the authorization-server session; revocation refuses the JWT", async () => {
    const bob = await h.createUser({ name: "bob", email: "bob@example.com" });
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const browser = new TestBrowser();
    const authorize = (state: string, prompt?: "none") =>
      oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read user:manage", state, ...(prompt ? { prompt } : {}) }).href;
    const { callback } = await runAuthorization(browser, h.base, authorize("s1"), { email: "bob@example.com", password: bob.password });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: "s1" });

    const jwks = createRemoteJWKSet(new URL(`${h.base}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(tokens.access_token, jwks, { algorithms: ["RS256"], audience: client.client_id, issuer: `${h.base}/oauth` });
    expect(payload).toMatchObject({ sub: String(bob.id), scopes: ["user:read", "user:manage"] });
    // The row is keyed by the JWT's jti (the hash of the inner token); no token value is stored.
    const stored = await rows();
    expect(stored.some((r) => r.model === "AccessToken" && r.key === payload.jti)).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(tokens.access_token);
    expect((await api(h.base, "/api/users/@me", tokens.access_token)).status).toBe(200);

    // Changing the password signs every browser out of the authorization server too.
    const eat = await obtainEat(h, tokens.access_token, "bob@example.com");
    const changed = await api(h.base, "/api/users/@me/password", tokens.access_token, { eat, body: { current_password: bob.password, password: "bob's brand new passphrase" } });
    expect(changed.status).toBe(200);
    expect((await rows()).some((r) => r.model === "Session" && JSON.parse(r.payload).accountId === String(bob.id))).toBe(false);
    expect(new URL((await browser.follow(authorize("s3", "none"), h.base)).url).searchParams.get("error")).toBe("login_required");

    // The app keeps its token until it is revoked; then it is refused, though its signature still verifies.
    expect((await api(h.base, "/api/users/@me", tokens.access_token)).status).toBe(200);
    await oidc.tokenRevocation(config, tokens.access_token);
    await expect(jwtVerify(tokens.access_token, jwks)).resolves.toBeDefined();
    expect((await api(h.base, "/api/users/@me", tokens.access_token)).status).toBe(401);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
  });
});
