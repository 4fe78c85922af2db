import * as oidc from "openid-client";
import { io as connectClient } from "socket.io-client";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { issueChatToken, revokeChatToken } from "../admin/chat-token.js";
import type { OvationApp } from "../app.js";
import { hashPassword } from "../identity/accounts/passwords.js";
import { TestBrowser } from "../identity/__tests__/browser.js";
import { obtainEat } from "../identity/__tests__/eat-helper.js";
import { startSmtp } from "../identity/__tests__/harness.js";
import { api, discover, runAuthorization } from "../identity/__tests__/oauth-helpers.js";
import type { IdentityModule } from "../identity/module.js";
import { freePort, tempDataDir, testApp } from "./helpers.js";
import { connect, join, waitFor } from "./socket-helpers.js";
import type { ClientSocket } from "./socket-helpers.js";

// Issue 31, item 3: revoking a token closes every socket opened with it (main namespace and
// /console): personal access tokens, the `ovation chat` session token, OAuth access tokens and
// every token of a grant whose refresh token is revoked. Sockets of other tokens stay.

const REDIRECT = "http://127.0.0.1:9/callback";
const PASSWORD = "a long and winding passphrase";
const data = tempDataDir();
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let app: OvationApp;
let base: string;
let identity: IdentityModule;
let alice: { id: number; uuid: string };
const opened: Array<{ close(): unknown }> = [];

/** The sockets a token can open: the main namespace (joined to the user's room) and the console; what closed them. */
interface Opened {
  main: ClientSocket;
  console: Socket;
  closed: { main: boolean; console: boolean };
  errors: string[];
}

async function openSockets(token: string, options: { room?: boolean } = {}): Promise<Opened> {
  const main = await connect(base, { token });
  if (options.room !== false) expect(await join(main, `${alice.uuid}.ovation.${alice.id}`)).toMatchObject({ joined: expect.any(String) });
  const consoleSocket = connectClient(`${base}/console`, { auth: { token }, transports: ["websocket"], reconnection: false, forceNew: true, timeout: 10_000 });
  await new Promise<void>((resolve, reject) => {
    consoleSocket.once("ready", () => resolve());
    consoleSocket.once("connect_error", reject);
  });
  opened.push(main, consoleSocket);
  const result: Opened = { main, console: consoleSocket, closed: { main: false, console: false }, errors: [] };
  main.on("error", (payload: { code: string }) => result.errors.push(payload.code));
  main.on("disconnect", () => (result.closed.main = true));
  consoleSocket.on("disconnect", () => (result.closed.console = true));
  return result;
}

async function bothClosed(sockets: Opened, what: string): Promise<void> {
  await waitFor(() => sockets.closed.main && sockets.closed.console, 10_000, what);
}

/** An OAuth grant of Alice's through the real authorization flow. */
async function oauthTokens(): Promise<{ config: oidc.Configuration; tokens: oidc.TokenEndpointResponse }> {
  const client = identity.clients.create({ name: "Overlay app", redirect_uris: [REDIRECT], public: false });
  const config = await discover(base, client.client_id, client.client_secret);
  const state = oidc.randomState();
  const authorize = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read alerts:manage chatbot:manage:commands", state });
  const { callback } = await runAuthorization(new TestBrowser(), base, authorize.href, { email: "alice@example.com", password: PASSWORD });
  const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: state });
  expect(typeof tokens.refresh_token).toBe("string");
  return { config, tokens };
}

beforeAll(async () => {
  smtp = await startSmtp();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await testApp(data.dir, { OVATION_PUBLIC_URL: base }, { identity: { idUrl: base, smtpUrl: `smtp://127.0.0.1:${smtp.port}`, onReady: (m) => (identity = m) } });
  await app.listen({ host: "127.0.0.1", port });
  const user = app.ovation.repos.users.create({ name: "Alice", email: "alice@example.com", email_verified_at: new Date().toISOString(), password_hash: await hashPassword(PASSWORD) });
  alice = { id: user.id, uuid: user.uuid };
}, 60_000);

afterAll(async () => {
  for (const socket of opened) socket.close();
  await app.close();
  await smtp.close();
  data.remove();
});

describe("revoking a token closes the sockets opened with it", () => {
  test("a personal access token revoked through DELETE /api/users/@me/tokens/:id: its main and console sockets close, another token's stay", async () => {
    const scopes = ["alerts:manage", "chatbot:manage:commands", "user:manage:credentials"];
    const revoked = app.ovation.repos.tokens.create({ user_id: alice.id, name: "leaked", scopes });
    const kept = app.ovation.repos.tokens.create({ user_id: alice.id, name: "kept", scopes });
    const doomed = await openSockets(revoked.token);
    const staying = await openSockets(kept.token);

    const eat = await obtainEat({ base, smtp }, kept.token, "alice@example.com");
    const deleted = await api(base, `/api/users/@me/tokens/${revoked.record.id}`, kept.token, { method: "DELETE", eat });
    expect(deleted.status).toBe(204);
    await bothClosed(doomed, "the revoked token's sockets to close");
    expect(doomed.errors).toContain("OVATION_ERR_REALTIME_UNAUTHENTICATED");
    expect(staying.main.connected && staying.console.connected).toBe(true);
    // The token cannot open a socket again either.
    await expect(connect(base, { token: revoked.token })).rejects.toMatchObject({ data: { code: "OVATION_ERR_REALTIME_UNAUTHENTICATED" } });
  }, 60_000);

  test("the `ovation chat` session token: revoked when the session ends, or replaced by a new session, its console closes", async () => {
    const first = issueChatToken(app.ovation.repos, "Alice");
    // Its scopes are the chat bot's: no alert room to join, but the main namespace and the console.
    const firstSockets = await openSockets(first, { room: false });
    // A new `ovation chat` session revokes the earlier session's token.
    const second = issueChatToken(app.ovation.repos, "Alice");
    await bothClosed(firstSockets, "the replaced chat token's sockets to close");
    const secondSockets = await openSockets(second, { room: false });
    expect(revokeChatToken(app.ovation.repos, second)).toBe(true);
    await bothClosed(secondSockets, "the ended chat session's sockets to close");
  }, 60_000);

  test("an OAuth access token revoked at /oauth/revoke closes its sockets", async () => {
    const { config, tokens } = await oauthTokens();
    const sockets = await openSockets(tokens.access_token);
    const other = await oauthTokens();
    const otherSockets = await openSockets(other.tokens.access_token);
    await oidc.tokenRevocation(config, tokens.access_token);
    await bothClosed(sockets, "the revoked access token's sockets to close");
    expect(otherSockets.main.connected && otherSockets.console.connected).toBe(true);
  }, 60_000);

  test("revoking a refresh token closes the sockets of its grant's access tokens", async () => {
    const { config, tokens } = await oauthTokens();
    const sockets = await openSockets(tokens.access_token);
    await oidc.tokenRevocation(config, tokens.refresh_token ?? "", { token_type_hint: "refresh_token" });
    await bothClosed(sockets, "the sockets of the revoked grant to close");
    await expect(connect(base, { token: tokens.access_token })).rejects.toMatchObject({ data: { code: "OVATION_ERR_REALTIME_UNAUTHENTICATED" } });
  }, 60_000);
});
