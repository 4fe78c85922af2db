import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildDefaultAlertSet, catalogWithPlatforms } from "@ovation/core/alerts";
import { buildApp, loadConfig } from "@ovation/server";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { freePort } from "./free-port.js";
import { serverApi } from "./server-api.js";
import type { ApiCall } from "./server-api.js";

/** The real server with one platform plugin, its first user, and an active default alert set. */
export interface PlatformServer {
  app: Awaited<ReturnType<typeof buildApp>>;
  base: string;
  api: ApiCall;
  close(): Promise<void>;
}

/**
 * Starts the REAL server on loopback with `env` (`OVATION_PLUGINS` and the plugin's settings; the
 * port may be needed before the env is known, so `env` gets the base URL), creates the first user
 * before it listens (platform plugins serve it), and activates the default alert set (over the
 * catalog with the alert types the loaded plugins declare, as a first run makes it), whose alerts
 * show for `displayMs`.
 */
export async function startPlatformServer(name: string, env: (base: string) => Record<string, string>, displayMs = 3000): Promise<PlatformServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `ovation-${name}-`));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({ OVATION_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port), OVATION_PUBLIC_URL: base, OVATION_LOG_LEVEL: "silent" });
  const app = await buildApp({ config, platforms: { env: env(base) } });
  const user = app.ovation.repos.users.create({ name, email: `${name}@example.test` });
  const token = app.ovation.repos.tokens.create({ user_id: user.id, name: "e2e", scopes: ["alerts:manage"] }).token;
  await app.listen({ host: "127.0.0.1", port });
  const api = serverApi(
    () => base,
    () => token,
  );
  const catalog = catalogWithPlatforms(app.platformPlugins.platforms());
  const { defaults, variations } = buildDefaultAlertSet({ id: 1, user_id: user.id }, { catalog });
  const set = await api<{ id: number }>("POST", "/v1/alert-configs", { name, version: 4, default: { display_time: displayMs }, defaults, variations });
  expect(set.status).toBe(201);
  expect((await api("POST", `/v1/alert-configs/${set.body.id}/activate`)).status).toBe(200);
  return {
    app,
    base,
    api,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Opens a fresh alerts browser source of `server` in `page` and waits until it is connected. */
export async function openAlertsSource(server: PlatformServer, page: Page): Promise<void> {
  const source = await server.api<{ browser_source_url: string }>("POST", "/v1/browser-source/generate", { browser_source_type: "alerts" });
  expect(source.status).toBeLessThan(300);
  await page.goto(source.body.browser_source_url);
  await page.waitForSelector(`#ovation-root[data-state="connected"]`, { timeout: 15_000 });
}

/**
 * Links a platform account to the server's first user as the link flow stores it (the connection,
 * then its tokens): the store's change feed makes the platform's plugin serve that channel, as a
 * streamer's "Connect" in the dashboard does. `refreshToken` is one the platform's fake accepts.
 */
export function linkChannel(server: PlatformServer, link: { platform: string; platform_user_id: string; username: string; refreshToken?: string }): number {
  const { users, connections } = server.app.ovation.repos;
  const owner = users.list()[0];
  if (!owner) throw new Error("no user to link to");
  const connection = connections.upsert({ user_id: owner.id, platform: link.platform, platform_user_id: link.platform_user_id, username: link.username });
  if (link.refreshToken) connections.saveTokens(connection.id, { access_token: null, refresh_token: link.refreshToken, expires_at: 0, scopes: [] });
  return connection.id;
}
