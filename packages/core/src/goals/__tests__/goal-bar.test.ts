import { describe, expect, it } from "vitest";
import { goalBarSchema, goalIncrement, goalProgress } from "../goal-bar.js";

describe("goal bars", () => {
  it("validates configurations and names what is wrong", () => {
    expect(goalBarSchema.parse({ title: "Subs", kind: "subscribers", target: 50 })).toMatchObject({ start_value: 0, counter: null, ends_at: null, style: { bar_color: "#6c5ce7" } });
    const bad = goalBarSchema.safeParse({ title: "", kind: "counter", target: 0, style: { bar_color: "red" } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["title", "target", "style.bar_color"]));
    expect(goalBarSchema.safeParse({ title: "x", kind: "counter", target: 5 }).error?.issues[0]).toMatchObject({ path: ["counter"] });
  });

  it("moves with the matching notifications only", () => {
    expect(goalIncrement("followers", "follow", {})).toBe(1);
    expect(goalIncrement("followers", "subscribe", {})).toBe(0);
    expect(goalIncrement("subscribers", "subscribe", { is_gift: false })).toBe(1);
    expect(goalIncrement("subscribers", "subscribe", { is_gift: true })).toBe(0);
    expect(goalIncrement("subscribers", "gift-subscribe", { amount: 5 })).toBe(5);
    expect(goalIncrement("subscribers", "re-subscribe", {})).toBe(1);
    expect(goalIncrement("bits", "cheer", { amount: 250 })).toBe(250);
    expect(goalIncrement("tips", "donation", { amount: "12.5" })).toBe(12.5);
    expect(goalIncrement("tips", "superchat", { amount: -3 })).toBe(0);
    expect(goalIncrement("counter", "follow", {})).toBe(0);
  });

  it("reports progress and whether the goal ended", () => {
    expect(goalProgress({ target: 3, ends_at: null }, 1)).toEqual({ current: 1, target: 3, percent: 33.3, ended: false });
    expect(goalProgress({ target: 3, ends_at: "2020-01-01T00:00:00Z" }, 9).percent).toBe(100);
    expect(goalProgress({ target: 3, ends_at: "2020-01-01T00:00:00Z" }, 9).ended).toBe(true);
  });
});
