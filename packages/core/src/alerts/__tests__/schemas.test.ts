import { describe, expect, it } from "vitest";
import { fieldErrorsFromZod } from "../../validation.js";
import { ALERT_LIMITS } from "../limits.js";
import { alertSetSchema, typeDefaultSchema, variationSchema } from "../schemas.js";
import { templateLayerSchema } from "../template-settings.js";
import {
  alertDataSchema,
  alertTestSchema,
  alertTriggerSchema,
  customCodeTemplateSchema,
  isCustomCodeTemplate,
  templateFromCustom,
} from "../trigger.js";

const baseSet = {
  id: 1,
  version: 4,
  user_id: 7,
  active: true,
  defaults: [{ platform: "twitch", type: "follow", name: "Follow", enabled: true, default: { title: "{{name}} is now following" } }],
  variations: [{ name: "All follows", conditions: { "===": [{ var: "type" }, "follow"] }, overrides: {} }],
};

function errorsOf(schema: { safeParse(input: unknown): { success: boolean; error?: unknown } }, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return fieldErrorsFromZod(result.error as Parameters<typeof fieldErrorsFromZod>[0]);
}

describe("alert set schema", () => {
  it("accepts a minimal set with default omitted or null, and own3d as ovation", () => {
    expect(alertSetSchema.parse(baseSet).default).toBeUndefined();
    expect(alertSetSchema.parse({ ...baseSet, default: null }).default).toBeNull();
    const own3d = alertSetSchema.parse({ ...baseSet, defaults: [{ platform: "own3d", type: "donation", name: "Tip", enabled: true }] });
    expect(own3d.defaults[0]?.platform).toBe("ovation");
    expect(own3d.defaults[0]?.default).toEqual({});
  });

  it("requires defaults and variations", () => {
    const { defaults: _d, variations: _v, ...rest } = baseSet;
    const errors = errorsOf(alertSetSchema, rest);
    expect(errors["defaults"]?.[0]).toMatch(/required/);
    expect(errors["variations"]?.[0]).toMatch(/required/);
  });

  it("refuses an AE3 version and drops the deprecated alert attribute", () => {
    expect(errorsOf(alertSetSchema, { ...baseSet, version: 3 })["version"]?.[0]).toMatch(/AE4/);
    expect("alert" in alertSetSchema.parse({ ...baseSet, alert: { title: "x" } })).toBe(false);
  });

  it("rejects an unknown operator when the config is saved, naming the path", () => {
    const errors = errorsOf(alertSetSchema, {
      ...baseSet,
      variations: [{ name: "x", conditions: { and: [{ matches: [{ var: "name" }, "a"] }] }, overrides: {} }],
    });
    expect(Object.keys(errors)).toEqual(["variations.0.conditions.and.0.matches"]);
    expect(errors["variations.0.conditions.and.0.matches"]?.[0]).toMatch(/unknown operator "matches".*rule: condition_operator/);
  });

  it("rejects a duplicate type+platform, an unknown type and a malformed platform", () => {
    const dup = errorsOf(alertSetSchema, { ...baseSet, defaults: [baseSet.defaults[0], { ...baseSet.defaults[0], name: "Again" }] });
    expect(dup["defaults.1.type"]?.[0]).toMatch(/rule: distinct/);
    const bad = errorsOf(typeDefaultSchema, { platform: "my space", type: "folow", name: "x", enabled: true });
    expect(bad["platform"]?.[0]).toMatch(/twitch/);
    expect(bad["type"]?.[0]).toMatch(/catalog/);
    // A plugin's platform is kept (the registry is open).
    expect(typeDefaultSchema.parse({ platform: "fakechat", type: "follow", name: "x", enabled: true }).platform).toBe("fakechat");
  });

  it("bounds the number of variations", () => {
    const many = Array.from({ length: ALERT_LIMITS.variations + 1 }, (_, i) => ({ name: `v${i}`, conditions: {}, overrides: {} }));
    expect(errorsOf(alertSetSchema, { ...baseSet, variations: many })["variations"]?.[0]).toMatch(/at most 200 items \(rule: max\)/);
  });

  it("rejects unknown template fields (typos) in every layer", () => {
    expect(errorsOf(variationSchema, { name: "x", conditions: {}, overrides: { titel: "x" } })["overrides.titel"]?.[0]).toMatch(/unknown_field/);
  });
});

describe("template field bounds", () => {
  const cases: [string, unknown, RegExp][] = [
    ["display_time", 100, /at least 500/],
    ["display_time", 1500.5, /integer/],
    ["volume", 101, /at most 100/],
    ["volume", -1, /at least 0/],
    ["font_size", 0.05, /at least 0.1/],
    ["font_size", 48, /at most 14/],
    ["font_weight", 1001, /at most 1000/],
    ["font_color", "red", /#rrggbb/],
    ["font_color", "#12345g", /#rrggbb/],
    ["font_highlight_color", "#fff", /#rrggbb/],
    ["title", "x".repeat(501), /at most 500 characters/],
    ["image_href", "javascript:alert(1)", /http\(s\) URL/],
    ["sound_href", "https://a.example/x y.mp3", /http\(s\) URL/],
    ["font_family", "Inter;} body{display:none", /font name/],
    ["layout", "<b>", /letters/],
    ["font_delay", -5, /at least 0/],
  ];
  it.each(cases)("%s = %j is refused with the rule", (field, value, message) => {
    expect(errorsOf(templateLayerSchema, { [field]: value })[field]?.[0]).toMatch(message);
  });

  it("accepts edge values and null", () => {
    const ok = { display_time: 500, volume: 0, font_size: 1.25, font_color: "#A0b1C2", sound_href: "", image_href: "https://cdn.example/x.gif", title: null };
    expect(templateLayerSchema.parse(ok)).toEqual(ok);
  });
});

describe("POST /v1/alerts bodies", () => {
  it("variant 1: a stored template name", () => {
    expect(alertTriggerSchema.parse({ template: "follow", data: { name: "Alice" } }).template).toBe("follow");
    expect(errorsOf(alertTriggerSchema, { template: "folow", data: {} })["template"]?.[0]).toMatch(/catalog/);
  });

  it("variant 2: every field of the table, bounded", () => {
    const v2 = {
      image_href: "https://example.com/a.gif", sound_href: "", title: "{{name}} did it", subtitle: "yay", display_time: 6000,
      layout: "image-left", volume: 80, font_size: 1.4, font_family: "Roboto", font_weight: 800, font_color: "#ffffff",
      font_highlight_color: "#ff00ff", font_animation: "wave", font_delay: 250, animation_alert_enter: "fadeIn", animation_alert_leave: "fadeOut",
    };
    const parsed = alertTriggerSchema.parse({ template: v2, data: { name: "A" } });
    expect(parsed.template).toEqual(v2);
    expect(typeof parsed.template !== "string" && isCustomCodeTemplate(parsed.template)).toBe(false);
    expect(templateFromCustom(v2)).toEqual({ ...v2, chat_message: "" });
    expect(errorsOf(alertTriggerSchema, { template: { ...v2, volume: 400 }, data: {} })).toEqual({
      "template.volume": ["The template.volume field must be at most 100 (rule: max)."],
    });
  });

  it("variant 3: user_defaults, html/css/js and fields", () => {
    const v3 = { user_defaults: false, html: "<div>{color}</div>", css: ".a{color:{color}}", js: "", fields: { color: "{{color}}" } };
    const parsed = alertTriggerSchema.parse({ template: v3, data: { color: "#fff" } });
    expect(typeof parsed.template !== "string" && isCustomCodeTemplate(parsed.template)).toBe(true);
    expect(errorsOf(customCodeTemplateSchema, { fields: { "bad key": "x" } })["fields.bad key"]?.[0]).toMatch(/key/);
  });

  it("data is bounded in depth, size and string length, with the path named", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 6; i++) deep = { a: deep };
    expect(Object.keys(errorsOf(alertDataSchema, { x: deep }))[0]).toMatch(/^x\.a\.a\.a\.a/);
    expect(errorsOf(alertDataSchema, { s: "x".repeat(2001) })["s"]?.[0]).toMatch(/2000/);
    expect(errorsOf(alertDataSchema, { s: Array.from({ length: 501 }, () => 1) })["s"]?.[0]).toMatch(/500 items/);
    expect(errorsOf(alertDataSchema, Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])))["(root)"]?.[0]).toMatch(/100 keys/);
    expect(alertDataSchema.parse({ emotes: [{ begin: 1, end: 3, id: "1" }], name: "A" })).toBeTruthy();
  });

  it("the test body accepts topic as the deprecated name of template", () => {
    expect(alertTestSchema.parse({ topic: "cheer" })).toEqual({ template: "cheer", data: undefined, platform: undefined });
    expect(alertTestSchema.parse({ template: "raid", topic: "cheer", platform: "own3d" })).toMatchObject({ template: "raid", platform: "ovation" });
    expect(errorsOf(alertTestSchema, { data: {} })["template"]?.[0]).toMatch(/formerly topic.*rule: required/);
  });
});
