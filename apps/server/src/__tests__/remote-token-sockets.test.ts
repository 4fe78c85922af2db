import * as oidc from "openid-client";
import { pino } from "pino";
import { io as connectClient } from "socket.io-client";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildApp } from "../app.js";
import type { OvationApp } from "../app.js";
import { TestBrowser } from "../identity/__tests__/browser.js";
import { startHarness } from "../identity/__tests__/harness.js";
import type { Harness } from "../identity/__tests__/harness.js";
import { discover, runAuthorization } from "../identity/__tests__/oauth-helpers.js";
import { tempDataDir, testConfig } from "./helpers.js";
import { listen, waitFor } from "./socket-helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

/** A socket on the main namespace opened with `token`, recording the `error` events it gets. */
async function open(base: string, token: string): Promise<{ socket: Socket; errors: string[] }> {
  const socket = connectClient(base, { auth: { token }, transports: ["websocket"], reconnection: false, forceNew: true, timeout: 10_000 });
  const errors: string[] = [];
  socket.on("error", (payload: { code: string }) => errors.push(payload.code));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return { socket, errors };
}

describe("a remote identity host's revoked token closes the sockets opened with it (issue 31, item 3)", () => {
  const data = tempDataDir();
  let h: Harness;
  let main: OvationApp;
  let base: string;
  let config: oidc.Configuration;
  const sockets: Socket[] = [];

  /** An access token for a new user of the identity host, through the authorization code flow. */
  async function accessToken(name: string): Promise<string> {
    const user = await h.createUser({ name, email: `${name}@example.com` });
    const { callback } = await runAuthorization(new TestBrowser(), h.base, oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "alerts:manage", state: name }).href, {
      email: `${name}@example.com`,
      password: user.password,
    });
    return (await oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: name })).access_token;
  }

  beforeAll(async () => {
    h = await startHarness();
    const apiClient = await h.client({ redirectUris: ["https://api.example.com/unused"] });
    const env = {
      OVATION_IDENTITY_MODE: "remote",
      OVATION_ID_URL: h.base,
      OVATION_ID_CLIENT_ID: apiClient.client_id,
      OVATION_ID_CLIENT_SECRET: apiClient.client_secret ?? "",
      OVATION_ID_RECHECK_SECONDS: "1",
    };
    main = await buildApp({ config: testConfig(data.dir, env), logger: pino({ level: "silent" }) });
    base = await listen(main);
    const app = await h.client({ redirectUris: [REDIRECT] });
    config = await discover(h.base, app.client_id, app.client_secret);
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await main?.close();
    await h?.close();
    data.remove();
  });

  test("revoked at the identity host: closed within the re-check period; another token's socket stays", async () => {
    const revoked = await accessToken("rita");
    const kept = await accessToken("kurt");
    const a = await open(base, revoked);
    const b = await open(base, kept);
    sockets.push(a.socket, b.socket);

    await oidc.tokenRevocation(config, revoked);
    await waitFor(() => a.socket.disconnected, 10_000, "the socket of the revoked token to be closed");
    expect(a.errors).toContain("OVATION_ERR_REALTIME_UNAUTHENTICATED");

    // Two more re-check periods: the other token's socket is still open, and the revoked token cannot reconnect.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(b.socket.connected).toBe(true);
    expect(b.errors).toEqual([]);
    await expect(open(base, revoked)).rejects.toThrow();
  }, 60_000);
});
