import { describe, expect, it } from "vitest";
import { SlidingWindowLimiter } from "../rate-limit.js";

describe("SlidingWindowLimiter", () => {
  it("keeps the sliding window exact while it drops expired calls in bulk", () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter({ limit: 100, windowMs: 60_000, now: () => now });
    // 100 calls, one every 100 ms (t = 0 .. 9.9 s): all allowed, the 101st refused.
    for (let i = 0; i < 100; i++) {
      now = i * 100;
      expect(limiter.tryTake("a")).toBe(true);
    }
    expect(limiter.tryTake("a")).toBe(false);
    expect(limiter.retryAfterMs("a")).toBe(60_000 - now);
    // Another key has a window of its own.
    expect(limiter.tryTake("b")).toBe(true);
    // At 60 s the first call (t = 0) has left the window: exactly one more call fits.
    now = 60_000;
    expect(limiter.tryTake("a")).toBe(true);
    expect(limiter.tryTake("a")).toBe(false);
    expect(limiter.retryAfterMs("a")).toBe(100);
    // At 66.5 s the calls of t = 100 ms .. 6.5 s (65 of them) have left; 65 more fit, then none.
    now = 66_500;
    for (let i = 0; i < 65; i++) expect(limiter.tryTake("a")).toBe(true);
    expect(limiter.tryTake("a")).toBe(false);
    // Long after, the whole limit is free again.
    now = 200_000;
    for (let i = 0; i < 100; i++) expect(limiter.tryTake("a")).toBe(true);
    expect(limiter.tryTake("a")).toBe(false);
    expect(limiter.retryAfterMs("a")).toBe(60_000);
  });
});
