import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildApp } from "../app.js";
import type { OvationApp } from "../app.js";
import { bearer, seedUser, tempDataDir, testConfig } from "./helpers.js";
import { refusedPlugin as refused } from "./refused-plugin.js";

const data = tempDataDir();
let app: OvationApp;

beforeAll(async () => {
  app = await buildApp({ config: testConfig(data.dir), logger: pino({ level: "silent" }), platforms: { env: { OVATION_PLUGINS: "console" }, factories: [refused] } });
});
afterAll(async () => {
  await app.close();
  data.remove();
});

describe("GET /v1/plugins", () => {
  test("lists every plugin with its status and what to fix, and only the caller's alert sets naming unserved platforms", async () => {
    const alice = seedUser(app, "Alice", ["user:read"]);
    const bob = seedUser(app, "Bob");
    const config = { defaults: [{ platform: "nowherechat", type: "follow", enabled: true, default: {} }] };
    const set = app.ovation.repos.alertSets.create({ user_id: alice.userId, name: "old platform", version: 4, config });
    const res = await app.inject({ method: "GET", url: "/v1/plugins", headers: bearer(alice.token) });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: Array<Record<string, unknown>>; unserved: Array<Record<string, unknown>> };
    const console_ = body.data.find((p) => p.id === "console");
    expect(console_).toMatchObject({ platform: "ovation", origin: "built-in", status: "connected", fix: null });
    const broken = body.data.find((p) => p.id === "refused");
    expect(broken).toMatchObject({ platform: "refusedchat", version: "1.2.3", status: "failed", detail: "the platform refused the token (401)" });
    expect(broken?.fix).toContain("OVATION_PLUGIN_REFUSED_*");
    expect(broken?.fix).toContain("restart the server");
    expect(JSON.stringify(body)).not.toContain(data.dir);
    expect(body.unserved).toEqual([{ alert_set_id: set.id, platforms: ["nowherechat"], fix: expect.stringContaining("OVATION_PLUGINS") }]);

    const other = await app.inject({ method: "GET", url: "/v1/plugins", headers: bearer(bob.token) });
    expect(other.json().unserved).toEqual([]);
  });

  test("needs a valid token", async () => {
    expect((await app.inject({ method: "GET", url: "/v1/plugins" })).statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/v1/plugins", headers: bearer("nope") })).statusCode).toBe(401);
  });
});
