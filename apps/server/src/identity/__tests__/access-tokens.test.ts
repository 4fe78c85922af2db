import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "../scope-descriptions.js";
import { TestBrowser } from "./browser.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api, discover, runAuthorization } from "./oauth-helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

describe("access tokens are RS256 JWTs backed by a revocable record; userinfo; scopes (issues 12, 20)", () => {
  let h: Harness;
  let alice: { id: number; email: string | null; password: string };
  let config: oidc.Configuration;
  let clientId: string;

  beforeAll(async () => {
    h = await startHarness();
    alice = await h.createUser({ name: "alice", email: "alice@example.com" });
    const client = await h.client({ redirectUris: [REDIRECT] });
    clientId = client.client_id;
    config = await discover(h.base, client.client_id, client.client_secret);
  });
  afterAll(async () => {
    await h.close();
  });

  async function authorize(scope: string, extra: Record<string, string> = {}): Promise<oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers> {
    const nonce = scope.includes("openid") ? oidc.randomNonce() : undefined;
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope, state: "st", ...(nonce ? { nonce } : {}), ...extra });
    const { callback } = await runAuthorization(new TestBrowser(), h.base, url.href, { email: "alice@example.com", password: alice.password });
    return oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: "st", ...(nonce ? { expectedNonce: nonce } : {}) });
  }

  it("signs access tokens RS256 with sub, aud, jti, scopes, exp, verifiable with /.well-known/jwks.json; revocation still refuses them", async () => {
    const tokens = await authorize("user:read connections");
    const jwks = createRemoteJWKSet(new URL(`${h.base}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, { algorithms: ["RS256"], audience: clientId, issuer: `${h.base}/oauth` });
    expect(protectedHeader.alg).toBe("RS256");
    expect(payload).toMatchObject({ sub: String(alice.id), aud: clientId });
    expect(payload.scopes).toEqual(["user:read", "connections"]);
    expect(typeof payload.jti).toBe("string");
    expect(payload.exp).toBeGreaterThan(Math.floor(Date.now() / 1000) + 14 * 24 * 3600);
    // The identity store holds no token value: only the hash that is the JWT's jti.
    const stored = JSON.stringify(h.identity.store.data.oidc);
    expect(stored).not.toContain(tokens.access_token);
    expect(stored).toContain(String(payload.jti));

    expect((await api(h.base, "/api/users/@me", tokens.access_token)).status).toBe(200);
    expect(await h.identity.tokenVerifier.verify(tokens.access_token)).toMatchObject({ userId: alice.id });
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
    await oidc.tokenRevocation(config, tokens.access_token);
    // Still a valid signature offline, but refused by the API, the host's check and introspection.
    await expect(jwtVerify(tokens.access_token, jwks)).resolves.toBeDefined();
    expect((await api(h.base, "/api/users/@me", tokens.access_token)).status).toBe(401);
    expect(await h.identity.tokenVerifier.verify(tokens.access_token)).toBeNull();
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
  });

  it("refuses a JWT whose signature is not ours even when its jti names a stored token", async () => {
    const tokens = await authorize("user:read");
    const [header, , signature] = tokens.access_token.split(".");
    const claims = decodeJwt(tokens.access_token);
    const forgedBody = Buffer.from(JSON.stringify({ ...claims, scopes: ["*"], scope: "*" })).toString("base64url");
    const forged = `${header}.${forgedBody}.${signature}`;
    expect((await api(h.base, "/api/users/@me", forged)).status).toBe(401);
    // The stored hash itself is not a token either.
    expect((await api(h.base, "/api/users/@me", String(claims.jti))).status).toBe(401);
    expect((await oidc.tokenIntrospection(config, `jwt:${forged}`)).active).toBe(false);
  });

  it("answers /oauth/userinfo for openid tokens (openid-client), with profile and email claims by scope", async () => {
    const tokens = await authorize("openid profile email user:read");
    const claims = tokens.claims();
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub ?? "");
    expect(info).toMatchObject({ sub: String(alice.id), name: "alice", email: "alice@example.com", email_verified: true });

    const onlyOpenid = await authorize("openid");
    const bare = await oidc.fetchUserInfo(config, onlyOpenid.access_token, String(alice.id));
    expect(bare).toEqual({ sub: String(alice.id) });

    const noOpenid = await authorize("user:read");
    const refused = await fetch(`${h.base}/oauth/userinfo`, { headers: { authorization: `Bearer ${noOpenid.access_token}` } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    const unknown = await fetch(`${h.base}/oauth/userinfo`, { headers: { authorization: "Bearer not-a-token-at-all-1234567890" } });
    expect(unknown.status).toBe(401);
  });

  it("knows all 24 documented scopes and Ovation's own (points, quotes) and answers invalid_scope for an unknown one at authorize", async () => {
    expect(SCOPES).toHaveLength(26);
    const all = await authorize(SCOPES.join(" "));
    expect(decodeJwt(all.access_token).scopes).toEqual([...SCOPES]);

    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read bogus:scope", state: "bad" });
    const answer = await new TestBrowser().follow(url.href, h.base);
    const location = new URL(answer.url);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get("error")).toBe("invalid_scope");
    expect(location.searchParams.get("error_description")).toContain("bogus:scope");
    expect(location.searchParams.get("state")).toBe("bad");
  });

  it("treats scope=\"\" as no API scopes (the PKCE example), never access_denied", async () => {
    const publicClient = await h.client({ public: true, redirectUris: [REDIRECT] });
    const pkce = await discover(h.base, publicClient.client_id, null);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(pkce, { redirect_uri: REDIRECT, scope: "", state: "empty", code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" });
    const { callback } = await runAuthorization(new TestBrowser(), h.base, url.href, { email: "alice@example.com", password: alice.password });
    expect(new URL(callback).searchParams.get("error")).toBeNull();
    const tokens = await oidc.authorizationCodeGrant(pkce, new URL(callback), { pkceCodeVerifier: verifier, expectedState: "empty" });
    // No API scope: the token only names its user (`openid`, see docs/identity.md).
    expect(decodeJwt(tokens.access_token).scopes).toEqual(["openid"]);
    const me = await api(h.base, "/api/users/@me", tokens.access_token);
    expect(me.status).toBe(403);
    expect(me.body.code).toBe("OVATION_ERR_IDENTITY_MISSING_SCOPE");
  });
});
