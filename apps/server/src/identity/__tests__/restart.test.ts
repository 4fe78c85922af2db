import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../accounts/passwords.js";
import { TestBrowser } from "./browser.js";
import { serveIdentity } from "./harness.js";
import { api, discover, runAuthorization } from "./oauth-helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const LIFETIMES = { accessToken: 3600, refreshToken: 7200 };

/** One run of the server on `port` (0: any), with the configured lifetimes. */
async function start(dataDir: string, port: number) {
  const run = await serveIdentity(dataDir, port, { lifetimes: LIFETIMES, ...(port === 0 ? {} : { idUrl: `http://127.0.0.1:${port}` }) });
  return { ...run, base: `http://127.0.0.1:${run.port}` };
}
type Run = Awaited<ReturnType<typeof start>>;

describe("identity state survives a restart (lowdb files, not memory)", () => {
  let dataDir: string;
  let run: Run | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ovation-identity-restart-"));
  });
  afterAll(async () => {
    await run?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps clients, grants, sessions and tokens: refresh and introspection work after rebuilding the app", async () => {
    run = await start(dataDir, 0);
    const base = run.base;
    const port = Number(new URL(base).port);
    const hash = await hashPassword("vic's long passphrase");
    const user = run.repos.users.create({ name: "vic", email: "vic@example.com", password_hash: hash });
    const client = run.identity.clients.create({ name: "Restart app", redirect_uris: [REDIRECT], public: false });
    const config = await discover(base, client.client_id, client.client_secret);
    const browser = new TestBrowser();
    const { callback } = await runAuthorization(browser, base, oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "before" }).href, {
      email: "vic@example.com",
      password: "vic's long passphrase",
    });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: "before" });
    // Configured lifetimes (not the 15/30-day defaults) apply to the issued tokens.
    expect(tokens.expires_in).toBeLessThanOrEqual(LIFETIMES.accessToken);
    expect(tokens.expires_in).toBeGreaterThan(LIFETIMES.accessToken - 60);
    const refreshInfo = await oidc.tokenIntrospection(config, tokens.refresh_token ?? "");
    expect(refreshInfo.active).toBe(true);
    expect((refreshInfo.exp ?? 0) - (refreshInfo.iat ?? 0)).toBe(LIFETIMES.refreshToken);
    const revoked = (await oidc.clientCredentialsGrant(config, { scope: "alerts:manage" })).access_token;
    await oidc.tokenRevocation(config, revoked);

    await run.stop();
    run = undefined;
    run = await start(dataDir, port);
    expect(run.base).toBe(base);

    // The client (its hashed secret) is still registered: introspection authenticates with it.
    const after = await discover(base, client.client_id, client.client_secret);
    expect(await oidc.tokenIntrospection(after, tokens.access_token)).toMatchObject({ active: true, sub: String(user.id), client_id: client.client_id, scope: "user:read" });
    expect((await oidc.tokenIntrospection(after, revoked)).active).toBe(false);
    expect((await api(base, "/api/users/@me", tokens.access_token)).body).toMatchObject({ id: user.id, name: "vic" });
    expect(await run.identity.tokenVerifier.verify(tokens.access_token)).toMatchObject({ userId: user.id, scopes: ["user:read"] });

    const refreshed = await oidc.refreshTokenGrant(after, tokens.refresh_token ?? "");
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect((await api(base, "/api/users/@me", refreshed.access_token)).status).toBe(200);

    // The browser's sessions and the grant survived too: prompt=none answers a code without any page.
    expect(run.identity.userOfSessionCookie(`ovation_session=${browser.cookie("ovation_session") ?? ""}`)).toBe(user.id);
    const silent = await browser.follow(oidc.buildAuthorizationUrl(after, { redirect_uri: REDIRECT, scope: "user:read", prompt: "none", state: "after" }).href, base);
    const silentUrl = new URL(silent.url);
    expect(silentUrl.searchParams.get("error")).toBeNull();
    const again = await oidc.authorizationCodeGrant(after, silentUrl, { expectedState: "after" });
    expect((await api(base, "/api/users/@me", again.access_token)).body.id).toBe(user.id);
  }, 60_000);
});
