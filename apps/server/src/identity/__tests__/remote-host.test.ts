import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IntrospectionTokenVerifier } from "../oidc/introspection-verifier.js";
import { TestBrowser } from "./browser.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { discover, runAuthorization } from "./oauth-helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

describe("a main API on another host than the identity module", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("verifies bearer tokens by introspection, caches briefly and sees revocation after the cache", async () => {
    const user = await h.createUser({ name: "rae", email: "rae@example.com" });
    const apiClient = await h.client({ redirectUris: ["https://api.example.com/unused"] });
    const app = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, app.client_id, app.client_secret);
    const { callback } = await runAuthorization(new TestBrowser(), h.base, oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "alerts:manage", state: "r" }).href, {
      email: "rae@example.com",
      password: user.password,
    });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: "r" });

    let now = Date.now();
    const verifier = new IntrospectionTokenVerifier({ idUrl: h.base, clientId: apiClient.client_id, clientSecret: apiClient.client_secret ?? "", cacheMs: 1000, now: () => now });
    expect(await verifier.verify(tokens.access_token)).toMatchObject({ userId: user.id, scopes: ["alerts:manage"], kind: "oauth_access_token" });
    expect(await verifier.verify(tokens.refresh_token ?? "")).toBeNull();
    expect(await verifier.verify("x".repeat(43))).toBeNull();

    await oidc.tokenRevocation(config, tokens.access_token);
    expect(await verifier.verify(tokens.access_token)).not.toBeNull();
    now += 1001;
    expect(await verifier.verify(tokens.access_token)).toBeNull();

    const appOnly = await oidc.clientCredentialsGrant(config, { scope: "alerts:manage" });
    expect(await verifier.verify(appOnly.access_token)).toBeNull();

    const wrongSecret = new IntrospectionTokenVerifier({ idUrl: h.base, clientId: apiClient.client_id, clientSecret: "nope" });
    await expect(wrongSecret.verify(appOnly.access_token)).rejects.toMatchObject({ code: "OVATION_ERR_IDENTITY_REMOTE_UNAVAILABLE" });
    const unreachable = new IntrospectionTokenVerifier({ idUrl: "http://127.0.0.1:9", clientId: "a", clientSecret: "b", timeoutMs: 2000 });
    await expect(unreachable.verify(appOnly.access_token)).rejects.toMatchObject({ code: "OVATION_ERR_IDENTITY_REMOTE_UNAVAILABLE" });
  });
});
