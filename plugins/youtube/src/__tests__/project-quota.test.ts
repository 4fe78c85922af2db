import { describe, expect, it } from "vitest";
import { ProjectQuota } from "../api/quota.js";
import type { SharedCounts } from "../api/quota.js";

/** A shared counter whose answers the test releases one at a time, in order (as Redis answers). */
function heldCounter(total: number): SharedCounts & { release(): void; held(): number } {
  const queue: Array<() => void> = [];
  return {
    count(_name, units) {
      total += units;
      const at = total;
      return new Promise((resolve) => queue.push(() => resolve(at)));
    },
    sum: async (_name, value) => value,
    release: () => queue.shift()?.(),
    held: () => queue.length,
  };
}

describe("ProjectQuota: the installation's YouTube units as this node knows them", () => {
  it("keeps the units it charged after a call when that call's total arrives, and settles once every call answered", async () => {
    // Another node spent 100 units: the shared counter already holds them.
    const shared = heldCounter(100);
    const quota = new ProjectQuota({ dailyUnits: 1_000, shared });
    quota.charge(5);
    quota.charge(5);
    quota.charge(5);
    expect(quota.used()).toBe(15);
    let settled = false;
    void quota.settled().then(() => (settled = true));
    // The first call's total (100 + 5) arrives while the next two (10 units) are still unanswered.
    shared.release();
    await Promise.resolve();
    await Promise.resolve();
    expect(quota.used()).toBe(115);
    expect(settled).toBe(false);
    shared.release();
    shared.release();
    await quota.settled();
    expect(settled).toBe(true);
    expect(quota.used()).toBe(115);
    expect(shared.held()).toBe(0);
  });
});
