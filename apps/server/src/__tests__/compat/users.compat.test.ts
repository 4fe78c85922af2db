import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { bootstrap } from "../../first-run.js";
import { createUser } from "../../admin/operations.js";
import { quickStartText } from "../../quick-start.js";
import { buildDefaultAlertSet } from "@ovation/core";
import { engineConfig } from "../../store/alert-sets.js";
import { LEGACY_STORE_FILE } from "../../store/legacy-file.js";
import type { OvationApp } from "../../app.js";
import { bearer, tempDataDir, testApp, testConfig } from "../helpers.js";

/** Runs `body` with an app on a fresh data directory, then closes and removes both. */
async function withApp(body: (app: OvationApp, dir: string) => Promise<void>): Promise<void> {
  const data = tempDataDir();
  const app = await testApp(data.dir);
  try {
    await body(app, data.dir);
  } finally {
    await app.close();
    data.remove();
  }
}

describe("every user gets the default alert set", () => {
  test("a user made by the CLI (or any account path) can send {template: follow} at once", () =>
    withApp(async (app) => {
      const user = createUser(app.ovation.repos, { name: "cliuser" });
      const { token } = app.ovation.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["alerts:manage"] });
      const res = await app.inject({ method: "POST", url: "/v1/alerts", headers: bearer(token), payload: { template: "follow", data: { name: "Someone" } } });
      expect(res.statusCode).toBe(201);
      expect(res.json().event).toEqual({ name: "Someone" });
      expect(app.ovation.repos.alertSets.listForUser(user.id)).toMatchObject([{ name: "Default alerts", active: true, version: 4 }]);
    }));
});

describe("first start", () => {
  test("on an empty installation it seeds the demo user, command, token and browser source", () =>
    withApp(async (app) => {
      const result = bootstrap(app.ovation.repos);
      expect(result).toMatchObject({ kind: "seeded", created: ["user", "alert set", "command", "token", "browser source"] });
      expect(bootstrap(app.ovation.repos).created).toEqual([]);
    }));

  test("with users it did not create, it creates no demo data and says how to make a token", () =>
    withApp(async (app, dir) => {
      createUser(app.ovation.repos, { name: "existing" });
      const result = bootstrap(app.ovation.repos);
      expect(result).toEqual({ kind: "existing-users", users: ["existing"], created: [] });
      const repos = app.ovation.repos;
      expect(repos.users.list().map((u) => u.name)).toEqual(["existing"]);
      expect(repos.commands.listForUser(1)).toEqual([]);
      expect(repos.tokens.listForUser(1)).toEqual([]);
      expect(quickStartText(testConfig(dir), result)).toContain("npx ovation token create --user 'existing'");
      // Later users do not turn the bootstrap back on.
      expect(bootstrap(repos).kind).toBe("existing-users");
    }));
});

describe("stored alert sets with pixel font sizes", () => {
  test("are migrated to relative sizes once at load (here from a schema-1 ovation.json); loading again changes nothing", async () => {
    const data = tempDataDir();
    const config = engineConfig(buildDefaultAlertSet({ id: 1, user_id: 1 })) as { default: Record<string, unknown>; variations: { overrides: Record<string, unknown> }[] };
    config.default["font_size"] = 72;
    (config.variations[0] as { overrides: Record<string, unknown> }).overrides["font_size"] = 18;
    const now = "2026-11-01T00:00:00.000000Z";
    const legacy = {
      schema_version: 1,
      sequences: { users: 1, alert_sets: 1 },
      users: [{ id: 1, uuid: "90a951d1-ea50-4fda-8c4d-275b81f7d219", name: "px", email: null, email_verified_at: null, password_hash: null, avatar: null, created_at: now, updated_at: now }],
      connections: [],
      personal_access_tokens: [],
      browser_sources: [],
      alert_sets: [{ id: 1, user_id: 1, name: "Old pixels", version: 4, active: true, config, created_at: now, updated_at: now }],
      commands: [],
      alert_log: [],
      queue_state: {},
      extensions: {},
      meta: {},
    };
    writeFileSync(join(data.dir, LEGACY_STORE_FILE), JSON.stringify(legacy));
    let app = await testApp(data.dir);
    const read = () => app.ovation.repos.alertSets.getForUser(1, 1)?.config as typeof config;
    expect(read().default["font_size"]).toBe(2);
    expect(read().variations[0]?.overrides["font_size"]).toBe(0.5);
    await app.close();
    app = await testApp(data.dir);
    expect(read().default["font_size"]).toBe(2);
    await app.close();
    data.remove();
  });
});
