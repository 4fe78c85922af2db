import { describe, expect, it } from "vitest";
import { QuotaBudget, pacificDay } from "../api/quota.js";
import { SendQueue, splitChatText } from "../chat/send-queue.js";

describe("splitChatText", () => {
  it("keeps short text, splits long text at spaces into messages of at most 200 characters, and cuts after three", () => {
    expect(splitChatText("  hello\nworld  ")).toEqual(["hello world"]);
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    const parts = splitChatText(words);
    expect(parts.length).toBe(3);
    for (const p of parts) expect(Array.from(p).length).toBeLessThanOrEqual(200);
    expect(parts.join(" ")).toBe(words);
    const huge = "x".repeat(1000);
    const cut = splitChatText(huge);
    expect(cut.map((p) => Array.from(p).length)).toEqual([200, 200, 200]);
    expect(cut[2]?.endsWith("…")).toBe(true);
    expect(splitChatText("🎉".repeat(250)).map((p) => Array.from(p).length)).toEqual([200, 50]);
    expect(splitChatText("   ")).toEqual([]);
  });
});

describe("SendQueue", () => {
  it("sends one at a time in order and refuses pushes beyond its limit", async () => {
    const queue = new SendQueue({ limit: 2, gapMs: 0 });
    const order: number[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const full = () => new Error("full");
    const a = queue.push(async () => {
      await gate;
      order.push(1);
    }, full);
    const b = queue.push(async () => void order.push(2), full);
    const c = queue.push(async () => void order.push(3), full);
    await expect(queue.push(async () => void order.push(4), full)).rejects.toThrow("full");
    release();
    await Promise.all([a, b, c]);
    expect(order).toEqual([1, 2, 3]);
    const failing = queue.push(async () => {
      throw new Error("boom");
    }, full);
    await expect(failing).rejects.toThrow("boom");
    queue.stop(() => new Error("stopped"));
    await expect(queue.push(async () => undefined, full)).rejects.toThrow("full");
  });
});

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
