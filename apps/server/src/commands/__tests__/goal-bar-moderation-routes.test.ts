import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goalBarSchema } from "@ovation/core";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { bearer, seedUser, tempDataDir, testConfig } from "../../__tests__/helpers.js";

// The goal bars' and auto-moderation's routes are declared by their modules in @ovation/core and
// mounted by the server (issue 30): what only these routes check, through real HTTP handling.
describe("goal bar and moderation routes declared by their modules", () => {
  const data = tempDataDir();
  let app: OvationApp;
  let token: string;
  let userId: number;
  const call = (method: "GET" | "POST" | "PUT", url: string, payload?: object) => app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload }) });

  beforeAll(async () => {
    app = await buildApp({ config: testConfig(data.dir), logger: pino({ level: "silent" }) });
    ({ token, userId } = seedUser(app, "Streamer", ["widgets:manage", "chatbot:manage:moderation"]));
  });
  afterAll(async () => {
    await app.close();
    data.remove();
  });

  it("the 101st goal bar is refused naming title, and nothing more is stored", async () => {
    const goal = goalBarSchema.parse({ title: "Seeded", kind: "followers", target: 10 });
    for (let i = 0; i < 100; i++) app.ovation.repos.goalBars.create(userId, { ...goal, current: 0 });
    for (const url of ["/v1/goal-bars", "/v1/bots/@me/goal-bars"]) {
      const refused = await call("POST", url, { title: "One too many", kind: "followers", target: 10 });
      expect(refused.statusCode, url).toBe(422);
      expect(refused.json()).toEqual({ message: "A user has at most 100 goal bars.", code: "OVATION_ERR_HTTP_VALIDATION", errors: { title: ["A user has at most 100 goal bars."] } });
    }
    expect(app.ovation.repos.goalBars.listForUser(userId)).toHaveLength(100);
    expect((await call("GET", "/v1/goal-bars")).json().data).toHaveLength(100);
  });

  it("a pattern that does not compile is a 422 naming it, worded like the validator; the stored settings stay", async () => {
    expect((await call("PUT", "/v1/bots/@me/moderation", { bad_words: { enabled: true, patterns: ["b[a4]d"] } })).statusCode).toBe(200);
    const refused = await call("PUT", "/v1/bots/@me/moderation", { bad_words: { enabled: true, patterns: ["fine", "(?=x)y"] } });
    expect(refused.statusCode).toBe(422);
    const body = refused.json() as { message: string; code: string; errors: Record<string, string[]> };
    expect(body.code).toBe("OVATION_ERR_HTTP_VALIDATION");
    expect(Object.keys(body.errors)).toEqual(["bad_words.patterns.1"]);
    expect(body.errors["bad_words.patterns.1"]?.[0]).toMatch(/^The bad_words\.patterns\.1 field is invalid: the pattern /);
    expect(body.message).toBe(body.errors["bad_words.patterns.1"]?.[0]);
    expect((await call("GET", "/v1/bots/@me/moderation")).json().settings.bad_words.patterns).toEqual(["b[a4]d"]);
    expect(app.ovation.repos.botState.moderation(userId)?.bad_words.patterns).toEqual(["b[a4]d"]);
    const verdict = await call("POST", "/v1/bots/@me/moderation/test", { message: "so bad" });
    expect(verdict.json()).toMatchObject({ verdict: { rule: "bad_words" } });
  });

  it("OpenAPI lists goal bars at both addresses under `goal bars` (201 on create) and moderation under `bot moderation`", async () => {
    const doc = (await app.inject({ method: "GET", url: "/openapi.json" })).json() as { paths: Record<string, Record<string, { tags: string[]; summary: string; responses: Record<string, unknown> }>> };
    for (const path of ["/v1/goal-bars", "/v1/bots/{user}/goal-bars"]) {
      expect(doc.paths[path]?.["post"]?.tags, path).toEqual(["goal bars"]);
      expect(Object.keys(doc.paths[path]?.["post"]?.responses ?? {}), path).toContain("201");
    }
    for (const path of ["/v1/goal-bars/{id}", "/v1/bots/{user}/goal-bars/{id}"]) {
      expect(Object.keys(doc.paths[path] ?? {}).sort(), path).toEqual(["delete", "get", "put"]);
    }
    expect(doc.paths["/v1/goal-bars/{id}/progress"]?.["post"]?.summary).toBe("Set or move a goal bar's progress by hand");
    expect(doc.paths["/v1/bots/{user}/moderation/test"]?.["post"]?.tags).toEqual(["bot moderation"]);
    expect(doc.paths["/v1/bots/{user}/moderation"]?.["put"]?.tags).toEqual(["bot moderation"]);
    expect(doc.paths["/v1/moderation"]).toBeUndefined();
  });
});
