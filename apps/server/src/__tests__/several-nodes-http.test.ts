import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildDefaultAlertSet } from "@ovation/core";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OvationApp } from "../app.js";
import { hashPassword } from "../identity/accounts/passwords.js";
import { TestBrowser } from "../identity/__tests__/browser.js";
import { obtainEat } from "../identity/__tests__/eat-helper.js";
import { startSmtp } from "../identity/__tests__/harness.js";
import { api, discover, runAuthorization } from "../identity/__tests__/oauth-helpers.js";
import type { IdentityModule } from "../identity/module.js";
import { freePort, tempDataDir, testApp } from "./helpers.js";
import { freshDatabase, sharedPostgres } from "./services/postgres.js";

const REDIRECT = "http://127.0.0.1:9/callback";

/** Polls `check` every 25 ms until it is true, at most 10 s. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface HttpNode {
  app: OvationApp;
  base: string;
  identity: IdentityModule;
  dataDir: string;
}

describe("two server nodes on one PostgreSQL database, over HTTP on loopback", () => {
  const nodes: HttpNode[] = [];
  const dirs: Array<{ remove(): void }> = [];
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    await sharedPostgres();
    const url = await freshDatabase();
    smtp = await startSmtp();
    // Behind a proxy both nodes answer for one public address: the issuer of tokens is node A's.
    const portA = await freePort();
    const publicUrl = `http://127.0.0.1:${portA}`;
    for (const port of [portA, await freePort()]) {
      const dir = tempDataDir();
      dirs.push(dir);
      let identity: IdentityModule | null = null;
      const app = await testApp(
        dir.dir,
        { OVATION_DATABASE_URL: url, OVATION_PUBLIC_URL: publicUrl },
        { identity: { idUrl: publicUrl, smtpUrl: `smtp://127.0.0.1:${smtp.port}`, onReady: (m) => (identity = m) } },
      );
      await app.listen({ host: "127.0.0.1", port });
      nodes.push({ app, base: `http://127.0.0.1:${port}`, identity: identity as unknown as IdentityModule, dataDir: dir.dir });
    }
  }, 120_000);

  afterAll(async () => {
    for (const node of nodes) await node.app.close();
    await smtp?.close();
    dirs.forEach((d) => d.remove());
  });

  test("a token, a command and an alert set made through node A work through node B; a password change on A ends sessions on B", async () => {
    const [a, b] = nodes as [HttpNode, HttpNode];
    const password = "a long and winding passphrase";
    const user = a.app.ovation.repos.users.create({ name: "Alice", email: "alice@example.com", email_verified_at: new Date().toISOString(), password_hash: await hashPassword(password) });
    await a.app.ovation.repos.store.persisted();

    // OAuth: the client registered on node A is known to node B; a token node A issued is accepted by B.
    const client = a.identity.clients.create({ name: "App", redirect_uris: [REDIRECT], public: false });
    await a.app.ovation.repos.store.persisted();
    await until("node B to know the OAuth client", async () => b.identity.clients.find(client.client_id) !== undefined);
    const config = await discover(a.base, client.client_id, client.client_secret);
    const browser = new TestBrowser();
    const state = oidc.randomState();
    const authorize = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read user:manage user:manage:credentials alerts:manage chatbot:manage:commands", state });
    const { callback } = await runAuthorization(browser, a.base, authorize.href, { email: "alice@example.com", password });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: state });
    await until("node B to accept node A's access token", async () => (await api(b.base, "/api/users/@me", tokens.access_token)).status === 200);
    expect((await api(b.base, "/api/users/@me", tokens.access_token)).body).toMatchObject({ id: user.id });

    // A personal access token created through node A (with an EAT from node A) works on node B.
    const eat = await obtainEat({ base: a.base, smtp }, tokens.access_token, "alice@example.com");
    const pat = await api(a.base, "/api/users/@me/tokens", tokens.access_token, { eat, body: { name: "bot", scopes: ["alerts:manage", "chatbot:manage:commands"] } });
    expect(pat.status).toBe(201);
    const patToken = String(pat.body.token);
    expect(patToken.length).toBeGreaterThan(10);
    await until("node B to accept the personal access token", async () => (await api(b.base, "/v1/bots/@me/commands", patToken)).status === 200);

    // A command and an alert set created through node A are served by node B.
    const command = await api(a.base, "/v1/bots/@me/commands", patToken, { body: { command: "!discord", response: "Join us at example.com" } });
    expect(command.status).toBe(201);
    await until("node B to list the command", async () => ((await api(b.base, "/v1/bots/@me/commands", patToken)).body.data as unknown[]).length === 1);
    const tested = await api(b.base, "/v1/bots/@me/commands/test", patToken, { body: { message: "!discord" } });
    expect(tested.body).toMatchObject({ matched: "discord", text: "Join us at example.com" });
    const { id: _id, user_id: _u, active: _a, ...ae4 } = buildDefaultAlertSet({ id: 1, user_id: 1 });
    const set = await api(a.base, "/v1/alert-configs", patToken, { body: { name: "Main", ...ae4, active: true } });
    expect(set.status).toBe(201);
    await until("node B to serve the alert set", async () => (await api(b.base, `/v1/alert-configs/${String(set.body.id)}`, patToken)).status === 200);
    expect((await api(b.base, `/v1/alert-configs/${String(set.body.id)}`, patToken)).body).toMatchObject({ name: "Main", active: true });
    // And node B changes it; node A sees the change.
    expect((await api(b.base, `/v1/bots/@me/commands/${String(command.body.id)}`, patToken, { method: "DELETE" })).status).toBe(204);
    await until("node A to see the deletion", async () => ((await api(a.base, "/v1/bots/@me/commands", patToken)).body.data as unknown[]).length === 0);

    // The identity session made by signing in on node A is valid on node B...
    const cookie = browser.cookieHeader();
    await until("node B to know the sign-in session", async () => b.identity.userOfSessionCookie(cookie) === user.id);
    // ...until the password is changed on node A: then it ends on both.
    const changed = await api(a.base, "/api/users/@me/password", tokens.access_token, { eat, body: { current_password: password, password: "another long passphrase" } });
    expect(changed.status).toBe(200);
    expect(a.identity.userOfSessionCookie(cookie)).toBeNull();
    await until("node B to end the session", async () => b.identity.userOfSessionCookie(cookie) === null);

    // Nothing of the identity data is in the nodes' own directories: it is all in the database.
    for (const node of nodes) for (const file of ["identity.json", "identity-keys.json"]) expect(existsSync(join(node.dataDir, file))).toBe(false);
  });
});
