import { describe, expect, it } from "vitest";
import { CooldownTracker } from "../cooldowns.js";

describe("CooldownTracker.claim", () => {
  it("takes every entry at once, or reports the first one still cooling down", () => {
    let now = 1_000_000;
    const tracker = new CooldownTracker({ now: () => now });
    const first = tracker.claim([{ key: "g", seconds: 10 }, { key: "u", seconds: 30 }]);
    expect(first.ok).toBe(true);
    expect(tracker.claim([{ key: "g", seconds: 10 }, { key: "u", seconds: 30 }])).toEqual({ ok: false, index: 0, remainingSeconds: 10 });
    now += 10_000;
    expect(tracker.claim([{ key: "g", seconds: 10 }, { key: "u", seconds: 30 }])).toEqual({ ok: false, index: 1, remainingSeconds: 20 });
    // The refused claim took nothing: "g" is still free.
    expect(tracker.remainingSeconds("g", 10)).toBe(0);
  });

  it("release gives back what the claim took, restoring an earlier use", async () => {
    let now = 0;
    const tracker = new CooldownTracker({ now: () => now });
    tracker.use("g");
    now = 5_000;
    const claim = tracker.claim([{ key: "g", seconds: 5 }, { key: "new", seconds: 5 }]);
    expect(claim.ok).toBe(true);
    if (claim.ok) await claim.release();
    expect(tracker.remainingSeconds("g", 60)).toBe(55);
    expect(tracker.remainingSeconds("new", 60)).toBe(0);
  });

  it("force takes entries without checking them (moderators)", () => {
    let now = 0;
    const tracker = new CooldownTracker({ now: () => now });
    tracker.use("g");
    now = 1_000;
    expect(tracker.claim([{ key: "g", seconds: 60 }], { force: true }).ok).toBe(true);
    expect(tracker.remainingSeconds("g", 60)).toBe(60);
  });
});
