import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { buildDefaultAlertSet, resolveAlert } from "@ovation/core";
import type { AlertSetInput } from "@ovation/core";
import { useTwoUserApp } from "./helpers.js";

const fx = useTwoUserApp();
const call = fx.call;

const ae3 = (name: string) => JSON.parse(readFileSync(new URL(`../../../../fixtures/ae3/${name}`, import.meta.url), "utf8")) as Record<string, unknown>;
const ae4Body = () => {
  const { id: _id, user_id: _u, active: _a, ...rest } = buildDefaultAlertSet({ id: 1, user_id: 1 });
  return rest;
};

describe("/v1/alert-configs", () => {
  test("create, read, list, replace, activate and delete an AE4 set", async () => {
    // Every user starts with the default set (active); a set created with `active: true` takes over.
    expect((await call("GET", "/v1/alert-configs", fx.alice.token)).json().data).toMatchObject([{ name: "Default alerts", active: true }]);
    const created = await call("POST", "/v1/alert-configs", fx.alice.token, { name: "Main", ...ae4Body(), active: true });
    expect(created.statusCode).toBe(201);
    const set = created.json();
    expect(set).toMatchObject({ name: "Main", version: 4, user_id: fx.alice.userId, active: true });
    expect(Array.isArray(set.defaults)).toBe(true);
    expect(resolveAlert(set as AlertSetInput, { type: "follow", platform: "twitch", data: { name: "Zoe" }, random: 5 })).toMatchObject({ disabled: false });

    const second = (await call("POST", "/v1/alert-configs", fx.alice.token, { name: "Second", ...ae4Body(), variations: [] })).json();
    expect(second.active).toBe(false);
    expect((await call("GET", `/v1/alert-configs/${set.id}`, fx.alice.token)).json().name).toBe("Main");
    expect((await call("GET", "/v1/alert-configs", fx.alice.token)).json().data).toHaveLength(3);

    const replaced = await call("PUT", `/v1/alert-configs/${second.id}`, fx.alice.token, { name: "Renamed", ...ae4Body(), defaults: [] });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({ name: "Renamed", defaults: [] });

    const activated = await call("POST", `/v1/alert-configs/${second.id}/activate`, fx.alice.token);
    expect(activated.json().active).toBe(true);
    expect((await call("GET", `/v1/alert-configs/${set.id}`, fx.alice.token)).json().active).toBe(false);

    expect((await call("DELETE", `/v1/alert-configs/${second.id}`, fx.alice.token)).statusCode).toBe(204);
    expect((await call("GET", `/v1/alert-configs/${second.id}`, fx.alice.token)).statusCode).toBe(404);
  });

  test("another user's set is 404", async () => {
    const set = (await call("POST", "/v1/alert-configs", fx.alice.token, ae4Body())).json();
    const res = await call("GET", `/v1/alert-configs/${set.id}`, fx.bob.token);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe("OVATION_ERR_ALERT_SETS_NOT_FOUND");
  });

  test("an invalid config is a 422 naming the field path and the rule, and stores nothing", async () => {
    const before = (await call("GET", "/v1/alert-configs", fx.bob.token)).json().data.length;
    const body = ae4Body();
    const res = await call("POST", "/v1/alert-configs", fx.bob.token, { ...body, defaults: [{ ...body.defaults[0], default: { font_color: "red" } }] });
    expect(res.statusCode).toBe(422);
    const fields = Object.keys(res.json().errors);
    expect(fields.some((f) => f.startsWith("defaults.0.default.font_color"))).toBe(true);
    expect((await call("GET", "/v1/alert-configs", fx.bob.token)).json().data.length).toBe(before);
  });

  test("defaults and variations are required", async () => {
    const res = await call("POST", "/v1/alert-configs", fx.bob.token, { name: "x" });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(expect.arrayContaining(["defaults", "variations"]));
  });

  test("an AE3 set migrates to AE4 once; the second migration is a 422", async () => {
    const { id: _i, user_id: _u, active: _a, ...doc } = ae3("cheer-tiers.ae3.json");
    const created = await call("POST", "/v1/alert-configs", fx.alice.token, { name: "Old", ...doc });
    expect(created.statusCode).toBe(201);
    expect(created.json().version).toBe(3);
    const id = created.json().id;
    const bad = await call("POST", `/v1/alert-configs/${id}/migrate`, fx.alice.token, { engine: "ae5" });
    expect(bad.statusCode).toBe(422);
    const migrated = await call("POST", `/v1/alert-configs/${id}/migrate`, fx.alice.token, { engine: "ae4" });
    expect(migrated.statusCode).toBe(200);
    const set = migrated.json();
    expect(set.version).toBe(4);
    expect(set.defaults.length).toBeGreaterThan(0);
    const shown = resolveAlert(set as AlertSetInput, { type: "cheer", platform: "twitch", data: { name: "Zoe", amount: 20000 }, random: 1 });
    expect(shown).toMatchObject({ disabled: false });
    const again = await call("POST", `/v1/alert-configs/${id}/migrate`, fx.alice.token, { engine: "ae4" });
    expect(again.statusCode).toBe(422);
    expect(again.json().code).toBe("OVATION_ERR_ALERT_SETS_ALREADY_MIGRATED");
    const replace = await call("PUT", `/v1/alert-configs/${id}`, fx.alice.token, { ...doc, version: 3 });
    expect(replace.statusCode).toBe(422);
  });
});
