import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { chatEvent } from "../../__tests__/chat-events.js";
import { drawWeighted } from "../giveaways/draw.js";
import { GiveawayModule } from "../giveaways/giveaway-module.js";

/**
 * Pearson's chi-square goodness of fit. The critical values are the chi-square quantiles for a
 * false-failure probability of alpha = 1e-6 (one spurious failure in a million runs with a fair
 * source): df 9 -> 44.81, df 5 -> 35.89 (upper-tail quantiles of the chi-square distribution).
 */
const CRITICAL_ALPHA_1E6: Readonly<Record<number, number>> = { 5: 35.89, 9: 44.81 };

function chiSquare(observed: readonly number[], expected: readonly number[]): number {
  return observed.reduce((sum, o, i) => sum + (o - (expected[i] as number)) ** 2 / (expected[i] as number), 0);
}

const entrants = Array.from({ length: 10 }, (_, i) => ({ id: `u${i}`, weight: i < 5 ? 1 : 3 }));
const totalWeight = entrants.reduce((s, e) => s + e.weight, 0);

function tally(draws: number, random?: (max: number) => number): number[] {
  const counts = entrants.map(() => 0);
  for (let n = 0; n < draws; n++) {
    const [winner] = drawWeighted(entrants, 1, random);
    counts[entrants.indexOf(winner as (typeof entrants)[number])]!++;
  }
  return counts;
}

describe("giveaway draws are fair", () => {
  it("draws each entrant in proportion to their tickets (chi-square, 20 000 draws, alpha 1e-6)", () => {
    const draws = 20_000;
    const counts = tally(draws);
    const expected = entrants.map((e) => (draws * e.weight) / totalWeight);
    expect(chiSquare(counts, expected)).toBeLessThan(CRITICAL_ALPHA_1E6[9]!);
  });

  it("the same test rejects a biased source (the test has power)", () => {
    // A classic bias: a 1-in-16 chance of always landing on ticket 0.
    const biased = (max: number) => (randomInt(16) === 0 ? 0 : randomInt(max));
    const draws = 20_000;
    const expected = entrants.map((e) => (draws * e.weight) / totalWeight);
    expect(chiSquare(tally(draws, biased), expected)).toBeGreaterThan(CRITICAL_ALPHA_1E6[9]!);
  });

  it("draws several winners without replacement, every pair equally likely (chi-square, alpha 1e-6)", () => {
    const four = ["a", "b", "c", "d"].map((id) => ({ id, weight: 1 }));
    const pairs = new Map<string, number>();
    const draws = 12_000;
    for (let n = 0; n < draws; n++) {
      const picked = drawWeighted(four, 2).map((p) => p.id).sort().join("");
      pairs.set(picked, (pairs.get(picked) ?? 0) + 1);
    }
    expect(pairs.size).toBe(6);
    expect(chiSquare([...pairs.values()], Array.from({ length: 6 }, () => draws / 6))).toBeLessThan(CRITICAL_ALPHA_1E6[5]!);
  });

  it("the module weights subscribers, never draws anyone twice and rerolls to someone new", async () => {
    const module = new GiveawayModule();
    module.open("chan-1", { keyword: "!join", subscriber_weight: 3 });
    for (let i = 0; i < 6; i++) {
      await module.enter(chatEvent("!join", { user: `v${i}`, username: `viewer${i}`, badges: i % 2 === 0 ? ["subscriber"] : [] }));
    }
    const state = module.get("chan-1");
    expect(state?.entries.map((e) => e.weight)).toEqual([3, 1, 3, 1, 3, 1]);
    const winners = module.draw("chan-1", 5);
    expect(new Set(winners.map((w) => w.user_platform_id)).size).toBe(5);
    const last = module.draw("chan-1", 5);
    expect(last).toHaveLength(1);
    expect(() => module.draw("chan-1")).toThrow(/every entrant has been drawn already/);
    expect(() => module.reroll("chan-1", winners[0]!)).toThrow(/every entrant has been drawn already/);
  });
});
