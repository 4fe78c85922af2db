import { describe, expect, it } from "vitest";
import { explainAlert, resolveAlert } from "../resolve.js";
import type { AlertSetInput } from "../schemas.js";
import { alertSetSchema } from "../schemas.js";
import { ENGINE_DEFAULT_TEMPLATE } from "../template-settings.js";
import { fillMessage } from "../placeholders.js";

// The reference's documented examples (docs/alerts.md): a set `default` with `"title": null`, the follow type default and
// the Twitch cheer >= 1000 variation.
const referenceSet: AlertSetInput = {
  id: 490885,
  version: 4,
  user_id: 1,
  active: true,
  default: { title: null, subtitle: null, font_family: "Montserrat", font_color: "#00ff00" },
  defaults: [
    { platform: "twitch", type: "follow", name: "Follow", enabled: true, default: { title: "{{name}} is now following" } },
    { platform: "twitch", type: "cheer", name: "Cheer", enabled: true, default: { title: "{{name}} cheered {{amount}} bits" } },
  ],
  variations: [
    { name: "Follows", conditions: { "===": [{ var: "type" }, "follow"] }, overrides: {} },
    { name: "Cheers", conditions: { "===": [{ var: "type" }, "cheer"] }, overrides: {} },
    {
      name: "Big Twitch cheer",
      conditions: { and: [{ "===": [{ var: "platform" }, "twitch"] }, { ">=": [{ var: "amount" }, 1000] }] },
      overrides: { title: "{{name}} sent a huge cheer of {{amount}}!", font_color: "#ff0000", sound_href: "https://example.com/big.mp3" },
    },
  ],
};

describe("the reference's documented alert examples", () => {
  it("the reference set validates as an AE4 config", () => {
    expect(alertSetSchema.safeParse(referenceSet).success).toBe(true);
  });

  it("the follow type default gives the follow title; the set's null title is skipped", () => {
    const result = resolveAlert(referenceSet, { type: "follow", platform: "twitch", data: { name: "Alice" }, random: 5 });
    expect(result.disabled).toBe(false);
    if (result.disabled) return;
    expect(result.template.title).toBe("{{name}} is now following");
    expect(fillMessage(result.template.title, { name: "Alice" })).toBe("Alice is now following");
    expect(result.template.subtitle).toBe(ENGINE_DEFAULT_TEMPLATE.subtitle);
    expect(result.template.font_family).toBe("Montserrat");
    expect(result.template.font_color).toBe("#00ff00");
    expect(result.variations).toEqual([0]);
  });

  it("the Twitch cheer >= 1000 variation overrides a cheer of 1000 or more", () => {
    const big = resolveAlert(referenceSet, { type: "cheer", platform: "twitch", data: { name: "Bob", amount: 1500 }, random: 50 });
    const edge = resolveAlert(referenceSet, { type: "cheer", platform: "twitch", data: { name: "Bob", amount: 1000 }, random: 50 });
    const small = resolveAlert(referenceSet, { type: "cheer", platform: "twitch", data: { name: "Bob", amount: 999 }, random: 50 });
    if (big.disabled || edge.disabled || small.disabled) throw new Error("cheer alerts must show");
    expect(big.variations).toEqual([1, 2]);
    expect(edge.variations).toEqual([1, 2]);
    expect(fillMessage(big.template.title, { name: "Bob", amount: 1500 })).toBe("Bob sent a huge cheer of 1500!");
    expect(big.template.font_color).toBe("#ff0000");
    expect(big.template.sound_href).toBe("https://example.com/big.mp3");
    expect(big.template.font_family).toBe("Montserrat");
    expect(small.variations).toEqual([1]);
    expect(small.template.title).toBe("{{name}} cheered {{amount}} bits");
    expect(small.template.font_color).toBe("#00ff00");
  });

  it("explain names the layer behind each field of the big cheer", () => {
    const explained = explainAlert(referenceSet, { type: "cheer", platform: "twitch", data: { name: "Bob", amount: 1500 }, random: 50 });
    expect(explained.disabled).toBe(false);
    expect(explained.fields.title.source).toEqual({ layer: "variation", index: 2, name: "Big Twitch cheer" });
    expect(explained.fields.title.overridden).toEqual([{ layer: "engine" }, { layer: "type", index: 1, name: "Cheer" }]);
    expect(explained.fields.title.skippedNull).toEqual([{ layer: "set" }]);
    expect(explained.fields.font_family.source).toEqual({ layer: "set" });
    expect(explained.fields.display_time.source).toEqual({ layer: "engine" });
    expect(explained.variations.map((v) => v.matched)).toEqual([false, true, true]);
  });

  it("a type without a type default, a disabled one, and one without a matching variation are disabled", () => {
    expect(resolveAlert(referenceSet, { type: "raid", platform: "twitch", data: {}, random: 1 })).toEqual({ disabled: true, reason: "no_type_default" });
    expect(resolveAlert(referenceSet, { type: "follow", platform: "youtube", data: {}, random: 1 })).toEqual({ disabled: true, reason: "no_type_default" });
    const off = { ...referenceSet, defaults: [{ ...referenceSet.defaults[0]!, enabled: false }] };
    expect(resolveAlert(off, { type: "follow", platform: "twitch", data: {}, random: 1 })).toEqual({ disabled: true, reason: "type_default_disabled" });
    const noVariation = { ...referenceSet, variations: [referenceSet.variations[1]!] };
    expect(resolveAlert(noVariation, { type: "follow", platform: "twitch", data: {}, random: 1 })).toEqual({ disabled: true, reason: "no_matching_variation" });
  });
});
