import { MODERATION_NUMBER_BOUNDS, moderationSettingsSchema } from "@ovation/core/api";
import { describe, expect, it } from "vitest";
import { LIMIT_BOUNDS } from "../app/pages/moderation/bounds.js";

describe("the auto-moderation page's limits", () => {
  it("check the same ranges as the server's schema", () => {
    expect(LIMIT_BOUNDS).toEqual(MODERATION_NUMBER_BOUNDS);
    // And the schema holds them: each bound is accepted, one past it refused.
    const at = (caps: number, timeout: number) => moderationSettingsSchema.safeParse({ caps: { max_percent: caps }, toxicity: { timeout_seconds: timeout } }).success;
    expect(at(LIMIT_BOUNDS.percent.max, LIMIT_BOUNDS.timeoutSeconds.max)).toBe(true);
    expect(at(LIMIT_BOUNDS.percent.max + 1, LIMIT_BOUNDS.timeoutSeconds.max)).toBe(false);
    expect(at(LIMIT_BOUNDS.percent.min, LIMIT_BOUNDS.timeoutSeconds.max + 1)).toBe(false);
  });
});
