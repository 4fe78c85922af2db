import { speechSettingsSchema } from "@ovation/core/overlays";
import { describe, expect, test } from "vitest";
import { moderateSpeech } from "../speech-moderation.js";

const settings = speechSettingsSchema.parse({ enabled: true, types: { donation: { min_amount: 2 }, cheer: { min_amount: 100 } }, max_length: 40, blocked_viewers: ["Troll", "999"] });
const tip = (message: string, extra: Partial<Parameters<typeof moderateSpeech>[0]> = {}) =>
  moderateSpeech({ type: "donation", amount: 5, name: "Ann", userId: "1", message, ...extra }, settings, ["darn", "heck"]);

describe("what read-aloud alerts read", () => {
  test("only the types chosen, from their minimum amount, never from a blocked viewer", () => {
    expect(tip("hi", { type: "follow" })).toEqual({ read: false, reason: "type_not_read" });
    expect(tip("hi", { amount: 1 })).toEqual({ read: false, reason: "below_min_amount" });
    expect(tip("hi", { name: "troll" })).toEqual({ read: false, reason: "blocked_viewer" });
    expect(tip("hi", { userId: "999" })).toEqual({ read: false, reason: "blocked_viewer" });
  });

  test("links, emotes, cheermotes and word-list words go; repeats are cut; the text is cut at a word", () => {
    expect(tip("go to www.spam.com now")).toEqual({ read: true, text: "go to now" });
    expect(tip("hi :hand-pink-waving: [emote:37226:KEKW] Cheer100 there")).toEqual({ read: true, text: "hi there" });
    expect(tip("well d4rn that, HECK!! and daaarn")).toEqual({ read: true, text: "well that, and" });
    expect(tip("sooooooo good!!!!!!!")).toEqual({ read: true, text: "sooo good!!!" });
    const long = tip("one two three four five six seven eight nine ten eleven");
    expect(long).toEqual({ read: true, text: "one two three four five six seven eight" });
    expect(tip("https://x.example.com :wave:")).toEqual({ read: false, reason: "empty" });
  });
});
