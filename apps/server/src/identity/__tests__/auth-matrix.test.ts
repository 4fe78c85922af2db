import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api, discover } from "./oauth-helpers.js";

/** Every identity API route with the scope it needs (null: any user token). */
const ROUTES: [method: string, path: string, scope: string | null][] = [
  ["GET", "/api/users/@me", "user:read"],
  ["GET", "/api/users/@me/connections", "connections"],
  ["POST", "/api/users/@me/connections/twitch/link", "connections"],
  ["POST", "/api/users/@me/update-email", "user:manage"],
  ["POST", "/api/users/@me/associate-password", "user:manage"],
  ["POST", "/api/users/@me/password", "user:manage"],
  ["POST", "/api/eat/request-verification", null],
  ["POST", "/api/eat/verify-code", null],
  ["GET", "/api/eat/verify", null],
  ["GET", "/api/users/@me/tokens", "user:manage:credentials"],
  ["POST", "/api/users/@me/tokens", "user:manage:credentials"],
  ["DELETE", "/api/users/@me/tokens/1", "user:manage:credentials"],
  ["GET", "/api/users/@me/two-factor", "user:read"],
  ["POST", "/api/users/@me/two-factor", "user:manage"],
  ["POST", "/api/users/@me/two-factor/confirm", "user:manage"],
  ["DELETE", "/api/users/@me/two-factor", "user:manage"],
  ["GET", "/api/users/@me/webauthn", "user:read"],
  ["POST", "/api/users/@me/webauthn/options", "user:manage"],
  ["POST", "/api/users/@me/webauthn", "user:manage"],
  ["DELETE", "/api/users/@me/webauthn/abc", "user:manage"],
  ["DELETE", "/api/users/@me", "user:manage"],
];

describe("authentication and scopes on every identity API route", () => {
  let h: Harness;
  let appToken: string;
  let narrow: string;
  let expired: string;

  beforeAll(async () => {
    h = await startHarness();
    const user = await h.createUser({ name: "sol", email: "sol@example.com" });
    narrow = h.repos.tokens.create({ user_id: user.id, name: "narrow", scopes: ["alerts:manage"] }).token;
    expired = h.repos.tokens.create({ user_id: user.id, name: "old", scopes: ["*"], now: new Date(Date.now() - 200 * 24 * 3600 * 1000) }).token;
    const client = await h.client({});
    appToken = (await oidc.clientCredentialsGrant(await discover(h.base, client.client_id, client.client_secret), { scope: "*" })).access_token;
  });
  afterAll(async () => {
    await h.close();
  });

  it.each(ROUTES)("%s %s: 401 without a valid token, 403 for app tokens and missing scopes", async (method, path, scope) => {
    const body = method === "POST" ? {} : undefined;
    for (const token of [null, "garbage-token-that-is-long-enough", expired]) {
      const r = await api(h.base, path, token, { method, body });
      expect(r.status, `${String(token).slice(0, 12)}`).toBe(401);
      expect(r.body).toEqual({ message: "Unauthenticated.", code: "OVATION_ERR_IDENTITY_UNAUTHENTICATED" });
    }
    const app = await api(h.base, path, appToken, { method, body });
    expect(app.status).toBe(403);
    expect(app.body.code).toBe("OVATION_ERR_IDENTITY_USER_TOKEN_REQUIRED");
    const limited = await api(h.base, path, narrow, { method, body });
    if (scope === null) {
      expect(limited.status).not.toBe(403);
    } else {
      expect(limited.status).toBe(403);
      expect(limited.body).toMatchObject({ code: "OVATION_ERR_IDENTITY_MISSING_SCOPE" });
      expect(limited.body.missing_scopes).toContain(scope);
    }
  });
});
