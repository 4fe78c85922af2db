import { describe, expect, it } from "vitest";
import { bodyOf, draftOf, validateDraft } from "../app/pages/alert-sets/draft.js";

/** The editor's draft of an alert set keeps the `effect` of type defaults and variations (docs/overlays.md). */

const stored = {
  id: 7,
  name: "Main",
  version: 4,
  default: { display_time: 3000 },
  defaults: [
    { platform: "twitch", type: "subscribe", name: "Subs", enabled: true, default: {}, effect: { effect: "fireworks", per_amount: 0, min_pieces: 40, max_pieces: 40 } },
    { platform: "twitch", type: "follow", name: "Follows", enabled: true, default: {} },
  ],
  variations: [
    { name: "All", conditions: {}, overrides: {} },
    { name: "Long subs", conditions: { ">=": [{ var: "months" }, 12] }, overrides: {}, effect: { effect: "hearts" } },
  ],
};

describe("the alert set draft", () => {
  it("saves the effects it was loaded with, and only where there was one", () => {
    const body = bodyOf(draftOf(stored));
    expect(body.defaults).toEqual(stored.defaults);
    expect(body.variations).toEqual(stored.variations);
    expect(Object.keys((body.defaults as object[])[1] ?? {})).not.toContain("effect");
  });

  it("checks an effect with the engine's schema", () => {
    expect(validateDraft(draftOf(stored))).toEqual({});
    const typo = draftOf({ ...stored, variations: [stored.variations[0], { ...stored.variations[1], effect: { effect: "lasers" } }] });
    expect(Object.keys(validateDraft(typo))).toEqual(["variations.1.effect.effect"]);
  });
});
