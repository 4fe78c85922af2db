import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALERT_TYPES } from "../catalog-data.js";
import { compileCondition } from "../conditions.js";
import { buildDefaultAlertSet } from "../default-set.js";
import { compileAlertSet, explainAlert, resolveAlert } from "../resolve.js";
import type { AlertSetInput } from "../schemas.js";
import type { AlertTemplate, TemplateLayer } from "../template-settings.js";
import { ENGINE_DEFAULT_TEMPLATE, TEMPLATE_FIELDS } from "../template-settings.js";
import { catalogPairs, getCatalogPlatform } from "../catalog.js";
import { ValidationError } from "../../validation.js";

const platforms = ["twitch", "youtube", "kick", "tiktok"] as const;
const types = ["follow", "cheer", "raid", "subscribe"] as const;

const layer: fc.Arbitrary<TemplateLayer> = fc.record(
  {
    title: fc.option(fc.constantFrom("A {{name}}", "B", ""), { nil: null }),
    subtitle: fc.option(fc.constantFrom("sub", ""), { nil: null }),
    font_color: fc.option(fc.constantFrom("#ff0000", "#00ff00"), { nil: null }),
    display_time: fc.option(fc.integer({ min: 500, max: 20_000 }), { nil: null }),
    volume: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
  },
  { requiredKeys: [] },
);
const condition = fc.oneof(
  fc.constant({}),
  fc.constantFrom(...types).map((t) => ({ "===": [{ var: "type" }, t] })),
  fc.constantFrom(...platforms).map((p) => ({ "===": [{ var: "platform" }, p] })),
  fc.integer({ min: 0, max: 2000 }).map((n) => ({ ">=": [{ var: "amount" }, n] })),
  fc.integer({ min: 1, max: 100 }).map((n) => ({ "<=": [{ var: "random" }, n] })),
  fc.tuple(fc.constantFrom(...types), fc.integer({ min: 0, max: 2000 })).map(([t, n]) => ({
    and: [{ "===": [{ var: "type" }, t] }, { ">=": [{ var: "amount" }, n] }],
  })),
  fc.tuple(fc.constantFrom(...types), fc.constantFrom(...types)).map(([a, b]) => ({ in: [{ var: "type" }, [a, b]] })),
);
const alertSet: fc.Arbitrary<AlertSetInput> = fc.record({
  default: fc.option(layer, { nil: undefined }),
  defaults: fc.uniqueArray(
    fc.record({ type: fc.constantFrom(...types), platform: fc.constantFrom(...platforms), enabled: fc.boolean(), default: layer }),
    { selector: (d) => `${d.type}/${d.platform}`, maxLength: 10 },
  ),
  variations: fc.array(fc.record({ name: fc.constantFrom("v", "w"), conditions: condition, overrides: layer }), { maxLength: 8 }),
}).map((s) => ({
  id: 1,
  version: 4,
  user_id: 2,
  active: true,
  ...(s.default ? { default: s.default } : {}),
  defaults: s.defaults.map((d) => ({ ...d, name: d.type })),
  variations: s.variations,
}));
const alert = fc.record({
  type: fc.constantFrom(...types),
  platform: fc.constantFrom(...platforms),
  data: fc.record({ name: fc.string({ maxLength: 5 }), amount: fc.integer({ min: 0, max: 3000 }) }, { requiredKeys: [] }),
  random: fc.integer({ min: 1, max: 100 }),
});

/** A naive reading of the merge rules in docs/alerts.md, written independently of resolve.ts. */
function naiveResolve(set: AlertSetInput, a: { type: string; platform: string; data: Record<string, unknown>; random: number }) {
  const typeDefault = set.defaults.find((d) => d.type === a.type && d.platform === a.platform);
  if (!typeDefault) return { disabled: true, reason: "no_type_default" };
  if (!typeDefault.enabled) return { disabled: true, reason: "type_default_disabled" };
  const context = { ...a.data, type: a.type, platform: a.platform, enabled: true, random: a.random };
  const matched = set.variations.flatMap((v, i) => (compileCondition(v.conditions)(context) ? [i] : []));
  if (matched.length === 0) return { disabled: true, reason: "no_matching_variation" };
  const template: Record<string, unknown> = { ...ENGINE_DEFAULT_TEMPLATE };
  for (const l of [set.default, typeDefault.default, ...matched.map((i) => set.variations[i]?.overrides)]) {
    for (const [k, v] of Object.entries(l ?? {})) if (v !== null && v !== undefined) template[k] = v;
  }
  return { disabled: false, template, variations: matched };
}

describe("resolveAlert", () => {
  it("follows the four layers and the disabled rules on generated sets and alerts (property)", () => {
    fc.assert(
      fc.property(alertSet, fc.array(alert, { minLength: 1, maxLength: 10 }), (set, alerts) => {
        const compiled = compileAlertSet(set);
        for (const a of alerts) {
          const result = compiled.resolve(a);
          expect(result).toEqual(naiveResolve(set, a));
          const explained = compiled.explain(a);
          expect(explained.disabled).toBe(result.disabled);
          if (!result.disabled) {
            expect(explained.template).toEqual(result.template);
            for (const field of TEMPLATE_FIELDS) expect(explained.fields[field].value).toEqual(result.template[field]);
            expect(explained.variations.filter((v) => v.matched).map((v) => v.index)).toEqual(result.variations);
          } else {
            expect(explained.reason).toBe(result.reason);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("null in a layer is skipped: the earlier value stays, and explain reports it", () => {
    const set: AlertSetInput = {
      id: 1, version: 4, user_id: 1, active: true,
      default: { title: "Set title", subtitle: null },
      defaults: [{ platform: "twitch", type: "raid", name: "Raid", enabled: true, default: { title: null, subtitle: "Type sub" } }],
      variations: [{ name: "all", conditions: {}, overrides: { title: null, subtitle: "" } }],
    };
    const result = resolveAlert(set, { type: "raid", platform: "twitch", data: {}, random: 1 });
    if (result.disabled) throw new Error("must show");
    expect(result.template.title).toBe("Set title");
    expect(result.template.subtitle).toBe("");
    const explained = explainAlert(set, { type: "raid", platform: "twitch", data: {}, random: 1 });
    expect(explained.fields.title.source).toEqual({ layer: "set" });
    expect(explained.fields.title.skippedNull).toEqual([{ layer: "type", index: 0, name: "Raid" }, { layer: "variation", index: 0, name: "all" }]);
    expect(explained.fields.subtitle.source).toEqual({ layer: "variation", index: 0, name: "all" });
  });

  it("condition variables: engine variables win over data keys, random and enabled are visible", () => {
    const set: AlertSetInput = {
      id: 1, version: 4, user_id: 1, active: true,
      defaults: [{ platform: "twitch", type: "cheer", name: "Cheer", enabled: true }],
      variations: [
        { name: "lucky", conditions: { "<=": [{ var: "random" }, 10] }, overrides: { title: "lucky" } },
        { name: "enabled", conditions: { "===": [{ var: "enabled" }, true] }, overrides: {} },
        { name: "spoof", conditions: { "===": [{ var: "type" }, "raid"] }, overrides: { title: "spoofed" } },
      ],
    };
    const lucky = resolveAlert(set, { type: "cheer", platform: "twitch", data: { type: "raid" }, random: 3 });
    const unlucky = resolveAlert(set, { type: "cheer", platform: "twitch", data: { type: "raid" }, random: 50 });
    expect(!lucky.disabled && lucky.template.title).toBe("lucky");
    expect(!unlucky.disabled && unlucky.variations).toEqual([1]);
    const drawn = explainAlert(set, { type: "cheer", platform: "twitch", data: {} });
    expect(drawn.random).toBeGreaterThanOrEqual(1);
    expect(drawn.random).toBeLessThanOrEqual(100);
  });

  it("accepts own3d for the ovation platform, survives hostile data keys, and refuses an invalid set clearly", () => {
    const set = buildDefaultAlertSet({ id: 3, user_id: 4 });
    const tip = resolveAlert(set, { type: "donation", platform: "own3d", data: { name: "A", amount: 5 }, random: 1 });
    expect(tip.disabled).toBe(false);
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1, "name": "x"}') as Record<string, unknown>;
    expect(resolveAlert(set, { type: "follow", platform: "twitch", data: hostile, random: 1 }).disabled).toBe(false);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(() => resolveAlert({ id: 1 } as unknown as AlertSetInput, { type: "follow", platform: "twitch" })).toThrow(ValidationError);
    try {
      compileAlertSet({ id: 1, version: 4, user_id: 1, active: true, defaults: [], variations: [{ name: "x", conditions: { nope: [] }, overrides: {} }] });
      expect.unreachable("an unknown operator must be refused");
    } catch (error) {
      expect((error as ValidationError).code).toBe("OVATION_ERR_ALERTS_INVALID_CONFIG");
      expect(Object.keys((error as ValidationError).errors)).toEqual(["variations.0.conditions.nope"]);
    }
  });

  it("handles more candidate variations than one compiled mask holds", () => {
    const variations = Array.from({ length: 130 }, (_, i) => ({
      name: `v${i}`,
      conditions: i % 2 === 0 ? { ">=": [{ var: "amount" }, i] } : { "===": [{ var: "type" }, "cheer"] },
      overrides: { display_time: 1000 + i },
    }));
    const set: AlertSetInput = {
      id: 1, version: 4, user_id: 1, active: true,
      defaults: [{ platform: "twitch", type: "cheer", name: "Cheer", enabled: true }, { platform: "twitch", type: "raid", name: "Raid", enabled: true }],
      variations,
    };
    for (const amount of [0, 1, 64, 100, 129, 500]) {
      const a = { type: "cheer", platform: "twitch", data: { amount }, random: 1 };
      expect(resolveAlert(set, a)).toEqual(naiveResolve(set, a));
      const r = { type: "raid", platform: "twitch", data: { amount }, random: 1 };
      expect(resolveAlert(set, r)).toEqual(naiveResolve(set, r));
    }
    const all = resolveAlert(set, { type: "cheer", platform: "twitch", data: { amount: 1000 }, random: 1 });
    expect(!all.disabled && all.variations.length).toBe(130);
    expect(!all.disabled && all.template.display_time).toBe(1129);
  });

  it("results are frozen and reused for the same matched variations", () => {
    const set = buildDefaultAlertSet({ id: 3, user_id: 4 });
    const a = resolveAlert(set, { type: "cheer", platform: "twitch", data: { amount: 1 }, random: 1 });
    const b = resolveAlert(set, { type: "cheer", platform: "twitch", data: { amount: 2 }, random: 2 });
    expect(a).toBe(b);
    expect(Object.isFrozen(a.disabled ? a : a.template)).toBe(true);
  });
});

describe("buildDefaultAlertSet", () => {
  it("shows every catalog type on every platform it exists on, with the catalog texts", () => {
    const set = buildDefaultAlertSet({ id: 10, user_id: 20 });
    expect(set).toMatchObject({ id: 10, user_id: 20, version: 4, active: true });
    expect(set.variations).toHaveLength(ALERT_TYPES.length);
    for (const { type, platform } of catalogPairs()) {
      const result = resolveAlert(set, { type, platform, data: { name: "N" }, random: 1 });
      if (result.disabled) throw new Error(`${type}/${platform} must show`);
      const texts = getCatalogPlatform(type, platform)?.default;
      expect(result.template.title).toBe(texts?.title ?? ENGINE_DEFAULT_TEMPLATE.title);
      expect(result.template.subtitle).toBe(texts?.subtitle ?? "");
      const template: AlertTemplate = result.template;
      expect(template.display_time).toBe(ENGINE_DEFAULT_TEMPLATE.display_time);
    }
    expect(resolveAlert(set, { type: "cheer", platform: "youtube", data: {}, random: 1 })).toEqual({ disabled: true, reason: "no_type_default" });
  });
});
