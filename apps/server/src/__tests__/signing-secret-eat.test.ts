import { pino } from "pino";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildApp } from "../app.js";
import type { OvationApp } from "../app.js";
import { loadIdentityEnv } from "../identity/identity-env.js";
import { TestBrowser } from "../identity/__tests__/browser.js";
import { fakeClock, startHarness, startSmtp } from "../identity/__tests__/harness.js";
import type { Harness } from "../identity/__tests__/harness.js";
import { obtainEat } from "../identity/__tests__/eat-helper.js";
import { discover, runAuthorization } from "../identity/__tests__/oauth-helpers.js";
import { ALL_SCOPES, tempDataDir, testConfig } from "./helpers.js";

/** An HTTP call on loopback: status and parsed JSON body. */
async function call(base: string, method: "GET" | "POST", path: string, token: string, eat?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
  if (eat !== undefined) headers["elevated-access-token"] = eat;
  const response = await fetch(`${base}${path}`, { method, headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function listen(app: OvationApp): Promise<string> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
}

function seed(app: OvationApp, name: string, email: string | null): { userId: number; token: string } {
  const user = app.ovation.repos.users.create({ name, email, email_verified_at: email === null ? null : new Date().toISOString() });
  const { token } = app.ovation.repos.tokens.create({ user_id: user.id, name: "test", scopes: ALL_SCOPES });
  return { userId: user.id, token };
}

const SECRET = "/v1/bots/@me/signing-secret";
const ROTATE = "/v1/bots/@me/signing-secret/rotate";

describe("the signing secret needs an EAT (identity module in this server)", () => {
  const data = tempDataDir();
  const clock = fakeClock(Date.now());
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let app: OvationApp;
  let base: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await buildApp({
      config: testConfig(data.dir),
      logger: pino({ level: "silent" }),
      identity: { env: loadIdentityEnv({}), smtpUrl: `smtp://127.0.0.1:${smtp.port}`, clock },
    });
    base = await listen(app);
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await smtp.close();
    data.remove();
  });

  /** request-verification, the mailed code, verify-code: the real flow. */
  async function eatFor(token: string, email: string): Promise<string> {
    return obtainEat({ base, smtp }, token, email);
  }

  test("401 without the header, 401 for a bad or expired one, 200 with a valid one", async () => {
    const erin = seed(app, "Erin", "erin@example.test");
    const missing = await call(base, "GET", SECRET, erin.token);
    expect(missing).toMatchObject({ status: 401, body: { code: "OVATION_ERR_AUTH_EAT_REQUIRED" } });
    expect((await call(base, "POST", ROTATE, erin.token)).body.code).toBe("OVATION_ERR_AUTH_EAT_REQUIRED");
    const bad = await call(base, "GET", SECRET, erin.token, "not-a-real-eat");
    expect(bad).toMatchObject({ status: 401, body: { code: "OVATION_ERR_AUTH_EAT_INVALID" } });

    const eat = await eatFor(erin.token, "erin@example.test");
    const ok = await call(base, "GET", SECRET, erin.token, eat);
    expect(ok.status).toBe(200);
    expect(ok.body.secret).toEqual(expect.any(String));
    const rotated = await call(base, "POST", ROTATE, erin.token, eat);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(ok.body.secret);

    // Another user's EAT is not the caller's.
    const fay = seed(app, "Fay", "fay@example.test");
    expect((await call(base, "GET", SECRET, fay.token, eat)).body.code).toBe("OVATION_ERR_AUTH_EAT_INVALID");

    // Expired: past the EAT lifetime (10 minutes) the same token is refused.
    clock.advance(11 * 60 * 1000);
    const expired = await call(base, "GET", SECRET, erin.token, eat);
    expect(expired).toMatchObject({ status: 401, body: { code: "OVATION_ERR_AUTH_EAT_INVALID" } });
  }, 90_000);

  test("an account without an email address needs none (no code could be mailed)", async () => {
    const gus = seed(app, "Gus", null);
    expect((await call(base, "GET", SECRET, gus.token)).status).toBe(200);
  }, 30_000);
});

describe("the main API with the identity module on another host (OVATION_IDENTITY_MODE=remote)", () => {
  const REDIRECT = "http://127.0.0.1:9/callback";
  const data = tempDataDir();
  const deadData = tempDataDir();
  let h: Harness;
  let main: OvationApp;
  let mainBase: string;
  let dead: OvationApp;
  let deadBase: string;

  beforeAll(async () => {
    h = await startHarness();
    const apiClient = await h.client({ redirectUris: ["https://api.example.com/unused"] });
    const remoteEnv = { OVATION_IDENTITY_MODE: "remote", OVATION_ID_URL: h.base, OVATION_ID_CLIENT_ID: apiClient.client_id, OVATION_ID_CLIENT_SECRET: apiClient.client_secret ?? "" };
    main = await buildApp({ config: testConfig(data.dir, remoteEnv), logger: pino({ level: "silent" }) });
    mainBase = await listen(main);
    // Nothing listens on the discard port of loopback: the identity host is unreachable.
    dead = await buildApp({ config: testConfig(deadData.dir, { ...remoteEnv, OVATION_ID_URL: "http://127.0.0.1:9" }), logger: pino({ level: "silent" }) });
    deadBase = await listen(dead);
  }, 60_000);
  afterAll(async () => {
    await main?.close();
    await dead?.close();
    await h?.close();
    data.remove();
    deadData.remove();
  });

  test("the local identity module is not served here", async () => {
    const response = await fetch(`${mainBase}/oauth/.well-known/openid-configuration`);
    expect(response.status).toBe(404);
  }, 30_000);

  test("an OAuth token of the identity host works here (introspection); the EAT is checked over HTTP", async () => {
    const user = await h.createUser({ name: "remy", email: "remy@example.com" });
    const app = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, app.client_id, app.client_secret);
    const { callback } = await runAuthorization(new TestBrowser(), h.base, oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "chatbot:manage:commands", state: "m" }).href, {
      email: "remy@example.com",
      password: user.password,
    });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: "m" });

    const list = await call(mainBase, "GET", "/v1/bots/@me/commands", tokens.access_token);
    expect(list.status).toBe(200);
    expect((await call(mainBase, "GET", "/v1/bots/@me/commands", "x".repeat(43))).status).toBe(401);

    expect((await call(mainBase, "GET", SECRET, tokens.access_token)).body.code).toBe("OVATION_ERR_AUTH_EAT_REQUIRED");
    expect(await call(mainBase, "GET", SECRET, tokens.access_token, "not-a-real-eat")).toMatchObject({ status: 401, body: { code: "OVATION_ERR_AUTH_EAT_INVALID" } });

    const eat = await obtainEat(h, tokens.access_token, "remy@example.com");
    const ok = await call(mainBase, "GET", SECRET, tokens.access_token, eat);
    expect(ok.status).toBe(200);
    expect(ok.body.secret).toEqual(expect.any(String));
    expect((await call(mainBase, "POST", ROTATE, tokens.access_token, eat)).status).toBe(200);

    // Remote mode asks for an EAT always, even of a personal access token of this server.
    const local = seed(main, "Pat", null);
    expect((await call(mainBase, "GET", SECRET, local.token)).body.code).toBe("OVATION_ERR_AUTH_EAT_REQUIRED");
  }, 90_000);

  test("an unreachable identity host is a 503, never a pass", async () => {
    const local = seed(dead, "Quinn", null);
    const eatCheck = await call(deadBase, "GET", SECRET, local.token, "some-eat");
    expect(eatCheck).toMatchObject({ status: 503, body: { code: "OVATION_ERR_AUTH_IDENTITY_UNAVAILABLE" } });
    const introspection = await call(deadBase, "GET", "/v1/bots/@me/commands", "y".repeat(43));
    expect(introspection).toMatchObject({ status: 503, body: { code: "OVATION_ERR_AUTH_IDENTITY_UNAVAILABLE" } });
  }, 60_000);
});
