import * as oidc from "openid-client";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freshDatabase, sharedPostgres } from "../../__tests__/services/postgres.js";
import { TestBrowser } from "../../identity/__tests__/browser.js";
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
});
