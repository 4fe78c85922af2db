import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../app.js";
import type { BuildAppOptions, OvationApp } from "../app.js";
import { loadConfig } from "../config.js";
import type { ServerConfig } from "../config.js";

/** Every scope the server's own routes use. */
export const ALL_SCOPES = ["alerts:manage", "chatbot:manage:commands", "user:read"];

/** A fresh temporary data directory. */
export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "ovation-server-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A test configuration on a data directory (loopback, quiet logs). */
export function testConfig(dataDir: string, env: Record<string, string> = {}): ServerConfig {
  return loadConfig({ OVATION_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: "0", OVATION_LOG_LEVEL: "silent", OVATION_PUBLIC_URL: "http://127.0.0.1:8080", ...env });
}

/** Builds an app on `dataDir` (`options`: further `buildApp` options, such as a short chat heartbeat). */
export async function testApp(dataDir: string, env: Record<string, string> = {}, options: Partial<BuildAppOptions> = {}): Promise<OvationApp> {
  return buildApp({ config: testConfig(dataDir, env), logger: pino({ level: "silent" }), ...options });
}

/** Creates a user and a token with `scopes` directly through the repositories. */
export function seedUser(app: OvationApp, name: string, scopes: readonly string[] = ALL_SCOPES): { userId: number; uuid: string; token: string } {
  const user = app.ovation.repos.users.create({ name, email: `${name.toLowerCase()}@example.test` });
  const { token } = app.ovation.repos.tokens.create({ user_id: user.id, name: "test", scopes });
  return { userId: user.id, uuid: user.uuid, token };
}

/** Authorization headers for a token. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, accept: "application/json" };
}

/** The id of the user's active alert set: the default set every user gets at creation (made again if it was removed). */
export async function seedDefaultAlertSet(app: OvationApp, userId: number): Promise<number> {
  const sets = app.ovation.repos.alertSets;
  return (sets.activeForUser(userId) ?? sets.createDefault(userId)).id;
}

/** A user made by `seedUser`. */
export type SeededUser = ReturnType<typeof seedUser>;

/** The app and users of `useTwoUserApp`, filled in by its `beforeAll`. */
export interface TwoUserApp {
  app: OvationApp;
  alice: SeededUser;
  bob: SeededUser;
  /** An injected request with `token` as bearer and `payload` as the JSON body. */
  call(method: "GET" | "POST" | "PUT" | "DELETE", url: string, token: string, payload?: unknown): ReturnType<OvationApp["inject"]>;
}

/**
 * Registers the `beforeAll`/`afterAll` of a test file that needs an app on a fresh data directory
 * with the users Alice and Bob (every scope of the server's own routes); `setup` runs after them.
 * Read the returned object's fields inside tests, not at module level.
 */
export function useTwoUserApp(setup?: (fixture: TwoUserApp) => Promise<void>): TwoUserApp {
  const data = tempDataDir();
  const fixture = {
    call: (method, url, token, payload) =>
      fixture.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) }),
  } as TwoUserApp;
  beforeAll(async () => {
    fixture.app = await testApp(data.dir);
    fixture.alice = seedUser(fixture.app, "Alice");
    fixture.bob = seedUser(fixture.app, "Bob");
    await setup?.(fixture);
  });
  afterAll(async () => {
    await fixture.app?.close();
    data.remove();
  });
  return fixture;
}

export { freePort } from "./services/free-port.js";
