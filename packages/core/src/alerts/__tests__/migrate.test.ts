import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OvationError } from "../../errors.js";
import { ValidationError } from "../../validation.js";
import type { Ae3Type } from "../ae3.js";
import { AE3_TYPES } from "../ae3.js";
import { buildDefaultAlertSet } from "../default-set.js";
import { AlertMigrationError } from "../alert-errors.js";
import { migrateAe3Alert, migrateAe3ToAe4 } from "../migrate.js";
import { LAYOUT_BASE_FONT_PX } from "../font-size.js";
import { fillMessage } from "../placeholders.js";
import { compileAlertSet } from "../resolve.js";
import { alertSetSchema } from "../schemas.js";
import type { Ae3Shown, RawAe3 } from "./ae3-oracle.js";
import { ae3Show } from "./ae3-oracle.js";

const fixtureDir = fileURLToPath(new URL("../../../../../fixtures/ae3/", import.meta.url));
const fixtures = readdirSync(fixtureDir)
  .filter((f) => f.endsWith(".ae3.json"))
  .sort()
  .map((file) => ({ file, doc: JSON.parse(readFileSync(fixtureDir + file, "utf8")) as RawAe3 & { id: number } }));

const PLATFORMS = ["twitch", "youtube", "kick", "tiktok"] as const;

/** What the migrated AE4 set shows for the same alert, converted to AE3's units for comparison. */
function ae4Show(set: ReturnType<typeof migrateAe3ToAe4>, alert: { type: Ae3Type; platform: string; data: Record<string, unknown> }, random: number): Ae3Shown | null {
  const converted = migrateAe3Alert(alert);
  const result = compileAlertSet(set).resolve({ type: converted.type, platform: alert.platform, data: converted.data, random });
  if (result.disabled) return null;
  const t = result.template;
  return {
    text: fillMessage(t.title, converted.data),
    subtext: fillMessage(t.subtitle, converted.data),
    message: fillMessage(t.chat_message, converted.data),
    settings: {
      image: t.image_href, sound: t.sound_href, duration: t.display_time / 1000, volume: t.volume / 100, font: t.font_family,
      font_size: Math.round(t.font_size * LAYOUT_BASE_FONT_PX), font_weight: t.font_weight, text_color: t.font_color, highlight_color: t.font_highlight_color,
      text_animation: t.font_animation, enter_animation: t.animation_alert_enter, leave_animation: t.animation_alert_leave, layout: t.layout,
    },
  };
}

function expectSameShow(actual: Ae3Shown | null, expected: Ae3Shown | null): void {
  if (expected === null || actual === null) {
    expect(actual).toEqual(expected);
    return;
  }
  expect({ ...actual, settings: { ...actual.settings, duration: 0, volume: 0 } }).toEqual({
    ...expected,
    settings: { ...expected.settings, duration: 0, volume: 0 },
  });
  expect(Math.abs((actual.settings["duration"] as number) - (expected.settings["duration"] as number))).toBeLessThan(1e-9);
  expect(Math.abs((actual.settings["volume"] as number) - (expected.settings["volume"] as number))).toBeLessThan(1e-9);
}

// Alert data per AE3 type, with every key optional (AE3 treated a missing number as 0).
const text = fc.constantFrom("Alice", "<b>Bob</b>", "", "{name}", "Zoë");
const dataFor: Record<Ae3Type, fc.Arbitrary<Record<string, unknown>>> = {
  follow: fc.record({ name: text }, { requiredKeys: [] }),
  subscribe: fc.record({ name: text, tier: fc.constantFrom("1000", "2000", "3000"), is_gift: fc.boolean() }, { requiredKeys: [] }),
  resubscribe: fc.record(
    { name: text, tier: fc.constantFrom("1000", "2000"), months: fc.integer({ min: 0, max: 60 }), streak: fc.integer({ min: 0, max: 60 }), duration: fc.integer({ min: 1, max: 6 }), message: text },
    { requiredKeys: [] },
  ),
  giftsub: fc.record(
    { gifter: text, tier: fc.constantFrom("1000", "3000"), amount: fc.integer({ min: 0, max: 120 }), cumulative_amount: fc.integer({ min: 0, max: 999 }), is_anonymous: fc.boolean() },
    { requiredKeys: [] },
  ),
  cheer: fc.record({ name: text, amount: fc.integer({ min: 0, max: 20_000 }), message: text, is_anonymous: fc.boolean() }, { requiredKeys: [] }),
  raid: fc.record({ name: text, count: fc.integer({ min: 0, max: 500 }) }, { requiredKeys: [] }),
  charity: fc.record(
    {
      campaign_id: fc.constantFrom("abc-1", ""), name: text, charity_name: fc.constantFrom("Kids", "Sea <3"), charity_description: text,
      charity_website: fc.constant("https://example.org"), charity_logo: fc.constant("https://example.org/l.png"),
      amount_value: fc.integer({ min: 0, max: 50_000 }), amount_currency: fc.constantFrom("USD", "EUR"), amount_decimal_places: fc.integer({ min: 0, max: 3 }),
    },
    { requiredKeys: [] },
  ),
};
const alertArb = fc
  .constantFrom(...AE3_TYPES)
  .chain((type) => fc.record({ type: fc.constant(type), platform: fc.constantFrom(...PLATFORMS), data: dataFor[type] }));

const ae3Text = fc
  .array(fc.oneof(fc.constantFrom("{name}", "{amount}", "{amount_value}", "{amount_currency}", "{amount_decimal_places}", "{months}", "{count}", "{gifter}", "{tier}", "{nope}", "{", "}", " ", "<i>"), fc.string({ maxLength: 4 })), { maxLength: 6 })
  .map((parts) => parts.join(""))
  .filter((t) => !t.includes("{{") && !t.includes("}}") && t.length <= 300);
const settingsArb = fc.record(
  {
    image: fc.constantFrom("", "https://cdn.example.com/a.gif"),
    sound: fc.constantFrom("", "https://cdn.example.com/a.mp3"),
    duration: fc.integer({ min: 500, max: 600_000 }).map((ms) => ms / 1000),
    volume: fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000),
    font: fc.constantFrom("Inter", "Roboto", "Comic Sans MS"),
    font_size: fc.integer({ min: 8, max: 200 }),
    font_weight: fc.constantFrom(300, 700),
    text_color: fc.constantFrom("#000000", "#ABCDEF"),
    highlight_color: fc.constantFrom("#123456"),
    text_animation: fc.constantFrom("wave", "none"),
    enter_animation: fc.constantFrom("fadeIn"),
    leave_animation: fc.constantFrom("fadeOut"),
    layout: fc.constantFrom("image-left", "text-only"),
  },
  { requiredKeys: [] },
);
const tierArb = fc.record(
  {
    name: fc.constantFrom("A", "B", "C"),
    min: fc.oneof(fc.integer({ min: -5, max: 3000 }), fc.integer({ min: 0, max: 30_000 }).map((n) => n / 100), fc.constantFrom(1000, 2000, 3000, 0)),
    text: ae3Text,
    subtext: ae3Text,
    message: ae3Text,
    settings: settingsArb,
  },
  { requiredKeys: ["name", "min"] },
);
const typeArb = (withTiers: boolean) =>
  fc.record(
    { enabled: fc.boolean(), text: ae3Text, subtext: ae3Text, message: ae3Text, settings: settingsArb, ...(withTiers ? { tiers: fc.array(tierArb, { maxLength: 5 }) } : {}) },
    { requiredKeys: ["enabled"] },
  );
const docArb = fc.record(
  {
    version: fc.constant(3),
    id: fc.integer({ min: 1, max: 1e6 }),
    user_id: fc.integer({ min: 1, max: 1e6 }),
    active: fc.boolean(),
    platform: fc.constantFrom(...PLATFORMS),
    settings: settingsArb,
    alert: settingsArb,
    types: fc.record(Object.fromEntries(AE3_TYPES.map((t) => [t, typeArb(t !== "follow")])) as Record<Ae3Type, fc.Arbitrary<never>>, { requiredKeys: [] }),
  },
  { requiredKeys: ["version", "id", "user_id", "active", "types"] },
) as fc.Arbitrary<RawAe3>;

describe("AE3 fixtures", () => {
  it("ships at least 5 varied fixtures", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(5);
    expect(fixtures.some((f) => f.doc.alert && !f.doc.settings)).toBe(true);
    expect(fixtures.some((f) => f.doc.alert && f.doc.settings)).toBe(true);
    expect(new Set(fixtures.map((f) => f.doc.platform ?? "twitch")).size).toBeGreaterThanOrEqual(3);
  });

  it.each(fixtures)("$file migrates to a valid AE4 set that shows every alert as AE3 did", ({ doc }) => {
    const set = migrateAe3ToAe4(doc);
    expect(alertSetSchema.safeParse(set).success).toBe(true);
    expect(set.version).toBe(4);
    expect(set.id).toBe(doc.id);
    expect("alert" in set).toBe(false);
    fc.assert(
      fc.property(alertArb, fc.integer({ min: 1, max: 100 }), (alert, random) => {
        expectSameShow(ae4Show(set, alert, random), ae3Show(doc, alert));
      }),
      { numRuns: 400 },
    );
  });

  it("cheer-tiers: picks one tier per amount, drops the shadowed tier, keeps texts and units", () => {
    const doc = fixtures.find((f) => f.file === "cheer-tiers.ae3.json")!.doc;
    const set = migrateAe3ToAe4(doc);
    expect(set.variations.map((v) => v.name)).not.toContain("Cheer: Big (old)");
    expect(set.default).toMatchObject({ title: null, subtitle: null, display_time: 7500, volume: 35, font_family: "Montserrat" });
    const show = (amount: number) => ae4Show(set, { type: "cheer", platform: "twitch", data: { name: "Al", amount } }, 1);
    expect(show(0)?.text).toBe("Al cheered 0 bits");
    expect(show(5)?.settings["image"]).toBe("https://cdn.example.com/alerts/small.gif");
    expect(show(1000)?.text).toBe("Al sent a big cheer of 1000");
    expect(show(12_000)?.text).toBe("Al dropped 12000 bits!!!");
    expect(show(12_000)?.settings["duration"]).toBe(15);
    expect(show(12_000)?.message).toBe("Thanks Al for 12000 bits!");
  });

  it("legacy `alert` is used only without `settings`", () => {
    const legacy = migrateAe3ToAe4(fixtures.find((f) => f.file === "legacy-alert-attribute.ae3.json")!.doc);
    expect(legacy.default?.font_color).toBe("#00ffcc");
    const both = migrateAe3ToAe4(fixtures.find((f) => f.file === "alert-and-settings-youtube.ae3.json")!.doc);
    expect(both.default?.font_family).toBe("Inter");
    expect(both.default?.font_color).toBe("#ffffff");
    expect(both.defaults.every((d) => d.platform === "youtube")).toBe(true);
  });
});

describe("migrateAe3ToAe4", () => {
  it("resolves every generated alert as AE3 would have, on generated AE3 documents (property)", () => {
    fc.assert(
      fc.property(docArb, fc.array(fc.tuple(alertArb, fc.integer({ min: 1, max: 100 })), { minLength: 1, maxLength: 20 }), (doc, alerts) => {
        const set = migrateAe3ToAe4(doc);
        for (const [alert, random] of alerts) expectSameShow(ae4Show(set, alert, random), ae3Show(doc, alert));
      }),
      { numRuns: 300 },
    );
  });

  it("is one-way: refuses an AE4 config, including its own output, with a clear error", () => {
    const ae4 = buildDefaultAlertSet({ id: 1, user_id: 1 });
    const migrated = migrateAe3ToAe4(fixtures[0]!.doc);
    for (const input of [ae4, migrated, { ...ae4, version: undefined }]) {
      try {
        migrateAe3ToAe4(input);
        expect.unreachable("an AE4 config must be refused");
      } catch (error) {
        expect(error).toBeInstanceOf(AlertMigrationError);
        expect(error).toBeInstanceOf(OvationError);
        expect((error as AlertMigrationError).code).toBe("OVATION_ERR_ALERTS_ALREADY_AE4");
        expect((error as Error).message).toMatch(/already an AE4.*one-way/);
      }
    }
  });

  it("refuses an invalid AE3 document naming every problem", () => {
    try {
      migrateAe3ToAe4({ version: 3, id: 1, user_id: 1, active: true, types: { follow: { enabled: true, tiers: [{ name: "x", min: 1 }] }, cheer: { enabled: "yes", text: "{{name}}" }, party: {} } });
      expect.unreachable("an invalid document must be refused");
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      const e = error as ValidationError;
      expect(e.code).toBe("OVATION_ERR_ALERTS_AE3_INVALID");
      expect(Object.keys(e.errors).sort()).toEqual(["types.cheer.enabled", "types.cheer.text", "types.party"]);
    }
    expect(() => migrateAe3ToAe4(null)).toThrow(ValidationError);
    expect(() => migrateAe3ToAe4({ version: 2, id: 1, user_id: 1, active: true, types: {} })).toThrow(/must be 3/);
  });
});
