import { describe, expect, it } from "vitest";
import { QuotaBudget, pacificDay } from "../api/quota.js";

describe("QuotaBudget", () => {
  it("counts units per call, resets at midnight Pacific, and spreads polls over the stream", () => {
    let now = Date.parse("2026-11-23T07:00:00Z"); // 23:00 Pacific (PST) on Nov 22
    const budget = new QuotaBudget({ dailyUnits: 10_000, streamSeconds: 4 * 3600, reserveUnits: 1_000, now: () => now });
    budget.charge("liveChatMessages.list");
    budget.charge("liveChatMessages.insert");
    budget.charge("liveBroadcasts.list");
    expect(budget.snapshot()).toMatchObject({ day: "2026-11-22", used: 26, left: 9_974, calls: { "liveChatMessages.list": 1, "liveChatMessages.insert": 1, "liveBroadcasts.list": 1 } });
    expect(budget.describe()).toBe("quota 26/10000 units used today (9974 left)");
    // A fresh 4-hour stream: 8974 units for chat over 14400 s at 5 units a poll -> about every 8 s.
    const delay = budget.chatPollDelay({ platformMs: 2_000, liveForMs: 0, extraUnitsPerSecond: 0, minMs: 0 });
    expect(delay).toBeGreaterThan(8_000);
    expect(delay).toBeLessThan(8_100);
    // YouTube's own interval wins when it is slower.
    expect(budget.chatPollDelay({ platformMs: 20_000, liveForMs: 0, extraUnitsPerSecond: 0, minMs: 0 })).toBe(20_000);
    // Subscriber polls (1 unit every 120 s) are set aside too.
    expect(budget.chatPollDelay({ platformMs: 0, liveForMs: 0, extraUnitsPerSecond: 1 / 120, minMs: 0 })).toBeGreaterThan(delay);
    budget.markExhausted();
    expect(budget.allows("liveChatMessages.list", true)).toBe(false);
    now += 2 * 3600_000; // 01:00 Pacific on Nov 23
    expect(pacificDay(now)).toBe("2026-11-23");
    expect(budget.snapshot()).toMatchObject({ used: 0, exhausted: false });
    expect(budget.allows("liveChatMessages.list", true)).toBe(true);
  });

  it("keeps the reserve for answers and slows polling to a minute when the budget is spent", () => {
    const budget = new QuotaBudget({ dailyUnits: 100, streamSeconds: 3600, reserveUnits: 50 });
    for (let i = 0; i < 10; i++) budget.charge("liveChatMessages.list");
    expect(budget.allows("liveChatMessages.list", true)).toBe(false);
    expect(budget.allows("liveChatMessages.insert", false)).toBe(true);
    expect(budget.chatPollDelay({ platformMs: 0, liveForMs: 0, extraUnitsPerSecond: 0, minMs: 0 })).toBe(60_000);
  });
});
