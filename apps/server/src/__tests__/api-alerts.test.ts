import { describe, expect, test } from "vitest";
import { notifySubSchema } from "@ovation/core";
import { bearer, seedDefaultAlertSet, useTwoUserApp } from "./helpers.js";

const fx = useTwoUserApp(async ({ app, alice }) => void (await seedDefaultAlertSet(app, alice.userId)));
const post = (url: string, token: string, payload: unknown) => fx.call("POST", url, token, payload);

describe("POST /v1/alerts", () => {
  test("variant 1 (stored template) answers 201 with a NotifySub notification that is logged", async () => {
    const res = await post("/v1/alerts", fx.alice.token, { template: "cheer", data: { name: "Zoe", amount: 1500 } });
    expect(res.statusCode).toBe(201);
    const body = notifySubSchema.parse(res.json());
    expect(body.subscription).toEqual({ type: "cheer", version: "1", condition: { platform: "twitch", platform_id: String(fx.alice.userId) } });
    expect(body.event).toEqual({ name: "Zoe", amount: 1500 });
    expect(body.ovation).toMatchObject({ template: null, test: false });
    expect(body.ovation?.random).toBeGreaterThanOrEqual(1);
    expect(body.ovation?.random).toBeLessThanOrEqual(100);
    expect(body.notification.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const log = await fx.app.inject({ method: "GET", url: "/v1/alerts/log", headers: bearer(fx.alice.token) });
    expect(log.json().data[0].notification.notification.id).toBe(body.notification.id);
  });

  test("variant 1 honours an explicit platform", async () => {
    const res = await post("/v1/alerts", fx.alice.token, { template: "follow", data: { name: "Zoe" }, platform: "own3d" });
    expect(res.statusCode).toBe(201);
    expect(res.json().subscription.condition.platform).toBe("own3d");
  });

  test("a stored template the user does not have is a 422 naming template", async () => {
    for (const set of fx.app.ovation.repos.alertSets.listForUser(fx.bob.userId)) fx.app.ovation.repos.alertSets.remove(fx.bob.userId, set.id);
    const res = await post("/v1/alerts", fx.bob.token, { template: "follow", data: { name: "Zoe" } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: "OVATION_ERR_ALERTS_UNKNOWN_TEMPLATE", errors: { template: [expect.stringContaining("follow")] } });
  });

  test("a template name outside the catalog is a validation 422", async () => {
    const res = await post("/v1/alerts", fx.alice.token, { template: "nonsense", data: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe("OVATION_ERR_HTTP_VALIDATION");
    expect(Object.keys(res.json().errors)).toContain("template");
  });

  test("variant 2 carries the inline template", async () => {
    const template = { title: "{{name}} did it", subtitle: "", display_time: 4000, font_color: "#ff0000" };
    const res = await post("/v1/alerts", fx.bob.token, { template, data: { name: "Zoe" } });
    expect(res.statusCode).toBe(201);
    expect(res.json().ovation.template).toEqual(template);
    expect(res.json().event).toEqual({ name: "Zoe", label: "ovation/custom-alert" });
    expect(res.json().subscription.type).toBe("custom");
  });

  test("variant 3 carries html/css/js and fields", async () => {
    const template = { html: "<b>{title}</b>", css: "b{color:{color}}", js: "", fields: { title: "{{name}}", color: "#00ff00" } };
    const res = await post("/v1/alerts", fx.bob.token, { template, data: { name: "Zoe" } });
    expect(res.statusCode).toBe(201);
    expect(res.json().ovation.template).toEqual(template);
  });

  test("missing data and a bad variant 2 field are named in errors", async () => {
    const res = await post("/v1/alerts", fx.bob.token, { template: { font_color: "red" } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(expect.arrayContaining(["data"]));
  });

  test("a repeated notification_id is answered 200 with the first notification and sent once", async () => {
    const first = await post("/v1/alerts", fx.alice.token, { template: "raid", data: { name: "Zoe", count: 3 }, notification_id: "evt-123" });
    const again = await post("/v1/alerts", fx.alice.token, { template: "raid", data: { name: "Other", count: 9 }, notification_id: "evt-123" });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const log = await fx.app.inject({ method: "GET", url: "/v1/alerts/log?limit=500", headers: bearer(fx.alice.token) });
    expect(log.json().data.filter((e: { notification: { notification: { id: string } } }) => e.notification.notification.id === "evt-123")).toHaveLength(1);
  });

  test("test alerts never enter the de-duplication memory", async () => {
    const hub = fx.app.ovation.hub;
    const base = { userId: fx.alice.userId, type: "follow", platform: "twitch", platformId: "1", event: { name: "T" }, template: null };
    expect((await hub.publish({ ...base, test: true, notificationId: "shared-id" })).duplicate).toBe(false);
    expect((await hub.publish({ ...base, test: false, notificationId: "shared-id" })).duplicate).toBe(false);
    expect((await hub.publish({ ...base, test: false, notificationId: "shared-id" })).duplicate).toBe(true);
  });

  test("a real alert reusing a test alert's notification id over HTTP is sent, not dropped", async () => {
    const testAlert = await post("/v1/alerts/test", fx.alice.token, { template: "follow" });
    expect(testAlert.statusCode).toBe(201);
    const id = testAlert.json().notification.id as string;
    const real = await post("/v1/alerts", fx.alice.token, { template: "follow", data: { name: "Real" }, notification_id: id });
    expect(real.statusCode).toBe(201);
    expect(real.json()).toMatchObject({ ovation: { test: false }, event: { name: "Real" } });
    expect((await post("/v1/alerts", fx.alice.token, { template: "follow", data: { name: "Again" }, notification_id: id })).statusCode).toBe(200);
  });
});

describe("POST /v1/alerts/test", () => {
  test("accepts the deprecated topic and answers with a Deprecation header", async () => {
    const res = await post("/v1/alerts/test", fx.alice.token, { topic: "follow" });
    expect(res.statusCode).toBe(201);
    expect(res.headers["deprecation"]).toMatch(/^@\d+$/);
    expect(res.json()).toMatchObject({ ovation: { test: true }, event: { name: expect.any(String) } });
  });

  test("with template: no Deprecation header", async () => {
    const res = await post("/v1/alerts/test", fx.alice.token, { template: "follow", data: { name: "Q" } });
    expect(res.statusCode).toBe(201);
    expect(res.headers["deprecation"]).toBeUndefined();
    expect(res.json().event).toEqual({ name: "Q" });
  });

  test("without template or topic: 422 on template", async () => {
    const res = await post("/v1/alerts/test", fx.alice.token, {});
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.template).toBeDefined();
  });
});

describe("authentication", () => {
  test("no token, a malformed token and an unknown token are 401 Unauthenticated.", async () => {
    for (const headers of [{}, { authorization: "Bearer" }, { authorization: "Bearer ovpat_1_" + "x".repeat(43) }, { authorization: `Basic ${fx.alice.token}` }]) {
      const res = await fx.app.inject({ method: "POST", url: "/v1/alerts", headers, payload: { template: "follow", data: {} } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: "Unauthenticated.", code: "OVATION_ERR_AUTH_UNAUTHENTICATED" });
    }
  });

  test("a revoked token is 401", async () => {
    const { record, token } = fx.app.ovation.repos.tokens.create({ user_id: fx.alice.userId, name: "t", scopes: ["alerts:manage"] });
    expect((await post("/v1/alerts/test", token, { template: "follow" })).statusCode).toBe(201);
    fx.app.ovation.repos.tokens.revoke(record.id);
    expect((await post("/v1/alerts/test", token, { template: "follow" })).statusCode).toBe(401);
  });

  test("a missing scope is 403 naming the scope", async () => {
    const { token } = fx.app.ovation.repos.tokens.create({ user_id: fx.alice.userId, name: "t", scopes: ["user:read"] });
    const res = await post("/v1/alerts", token, { template: "follow", data: {} });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: "OVATION_ERR_AUTH_MISSING_SCOPE", missing_scopes: ["alerts:manage"] });
  });

  test("an expired token is 401", async () => {
    const { token } = fx.app.ovation.repos.tokens.create({ user_id: fx.alice.userId, name: "old", scopes: ["*"], now: new Date(Date.now() - 200 * 86_400_000) });
    expect((await post("/v1/alerts/test", token, { template: "follow" })).statusCode).toBe(401);
  });
});

describe("GET /v1/users", () => {
  test("returns the caller with deprecated camelCase attributes beside their replacements", async () => {
    const res = await fx.app.inject({ method: "GET", url: "/v1/users", headers: bearer(fx.alice.token) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: fx.alice.userId, name: "Alice", email: "alice@example.test" });
    expect(body.actingUser).toEqual(body.acting_user);
    expect(body.referralReward).toEqual(body.referral_reward);
    expect(body.referralRewards).toEqual(body.referral_rewards);
    expect(body).not.toHaveProperty("password_hash");
  });
});

describe("queue control", () => {
  test("pause is remembered, resume clears it, clear marks the log cleared, replay re-sends", async () => {
    const pause = await post("/v1/alerts/queue/pause", fx.alice.token, undefined);
    expect(pause.json()).toEqual({ action: "pause", browser_source_id: null, paused: true, paused_sources: [] });
    expect((await post("/v1/alerts/queue/resume", fx.alice.token, undefined)).json()).toEqual({ action: "resume", browser_source_id: null, paused: false, paused_sources: [] });
    expect((await post("/v1/alerts/queue/skip", fx.alice.token, undefined)).statusCode).toBe(200);
    const sent = await post("/v1/alerts", fx.alice.token, { template: "follow", data: { name: "R" } });
    const replay = await post("/v1/alerts/queue/replay", fx.alice.token, { notification_id: sent.json().notification.id });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().ovation.replay).toBe(true);
    const missing = await post("/v1/alerts/queue/replay", fx.alice.token, { notification_id: "nope" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe("OVATION_ERR_ALERTS_NOTIFICATION_NOT_FOUND");
    const clear = await post("/v1/alerts/queue/clear", fx.alice.token, undefined);
    expect(clear.json().cleared).toBeGreaterThan(0);
    const log = await fx.app.inject({ method: "GET", url: "/v1/alerts/log", headers: bearer(fx.alice.token) });
    expect(log.json().data.every((e: { cleared: boolean }) => e.cleared)).toBe(true);
  });
});
