import * as oidc from "openid-client";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { connect, listen, nextEvent } from "../../__tests__/socket-helpers.js";
import { hashPassword } from "../accounts/passwords.js";
import type { IdentityModule } from "../module.js";
import { SESSION_COOKIE } from "../session.js";
import { TestBrowser } from "./browser.js";
import { api, discover, runAuthorization } from "./oauth-helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

describe("identity inside the Ovation host (buildApp)", () => {
  const data = tempDataDir();
  let app: OvationApp;
  let base: string;
  let identity: IdentityModule | undefined;
  let userId: number;
  let uuid: string;

  beforeAll(async () => {
    app = await buildApp({ config: testConfig(data.dir), logger: pino({ level: "silent" }), identity: { onReady: (m) => void (identity = m) } });
    base = await listen(app);
    const user = app.ovation.repos.users.create({ name: "kim", email: "kim@example.com", password_hash: await hashPassword("kim's long passphrase") });
    userId = user.id;
    uuid = user.uuid;
    app.ovation.repos.connections.upsert({ user_id: user.id, platform: "twitch", platform_user_id: "555", username: "kim_tv" });
  });
  afterAll(async () => {
    await app.close();
    data.remove();
  });

  it("documents the identity API in the host's OpenAPI document and hides the HTML and OAuth plumbing", async () => {
    const response = await fetch(`${base}/openapi.json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { paths: Record<string, Record<string, { tags?: string[]; summary?: string }>> };
    expect(doc.paths["/api/users/@me"]?.get).toMatchObject({ tags: ["identity"], summary: "The current user" });
    expect(doc.paths["/api/eat/verify-code"]?.post?.summary).toContain("elevated access token");
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/oauth") || p === "/api/{*}")).toEqual([]);
  });

  it("accepts OAuth access tokens on the main API and the session cookie at the socket handshake", async () => {
    if (identity === undefined) throw new Error("identity module not registered");
    expect(identity.idBase()).toBe(base);
    const client = identity.clients.create({ name: "Overlay tool", redirect_uris: [REDIRECT], public: true });
    const config = await discover(base, client.client_id, null);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read alerts:manage", code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "st" });
    const browser = new TestBrowser();
    const { callback } = await runAuthorization(browser, base, url.href, { email: "kim@example.com", password: "kim's long passphrase" });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier, expectedState: "st" });

    const account = await api(base, "/v1/users", tokens.access_token);
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ id: userId, name: "kim" });
    expect((await api(base, "/api/users/@me", tokens.access_token)).status).toBe(200);

    const session = browser.cookie(SESSION_COOKIE);
    expect(session).toBeTruthy();
    const socket = await connect(base, {}, { cookie: `${SESSION_COOKIE}=${session ?? ""}` });
    try {
      const room = `${uuid}.twitch.555`;
      const joined = nextEvent(socket, "joined");
      socket.emit("room", room);
      expect(await joined).toEqual({ room });
    } finally {
      socket.close();
    }

    const stranger = await connect(base, {}, { cookie: `${SESSION_COOKIE}=forged` });
    try {
      const refused = nextEvent(stranger, "error");
      stranger.emit("room", `${uuid}.twitch.555`);
      expect((await refused).code).toBe("OVATION_ERR_REALTIME_ROOM_FORBIDDEN");
    } finally {
      stranger.close();
    }
  });
});
