import { randomInt } from "node:crypto";

/** A uniform integer in [0, max) from a cryptographic source (Node's `crypto.randomInt`, unbiased). */
export type RandomInt = (max: number) => number;

/** Something that holds `weight` tickets. */
export interface Weighted {
  weight: number;
}

/**
 * Draws up to `count` distinct items, each pick with probability proportional to its weight among
 * those not yet picked (drawing without replacement). Uses `crypto.randomInt` unless `random` is
 * given; the sum of weights must stay below 2^48 (randomInt's range), which the entry cap ensures.
 */
export function drawWeighted<T extends Weighted>(items: readonly T[], count: number, random: RandomInt = randomInt): T[] {
  const pool = [...items];
  const picked: T[] = [];
  let total = pool.reduce((sum, item) => sum + item.weight, 0);
  while (picked.length < count && pool.length > 0 && total > 0) {
    let ticket = random(total);
    let index = 0;
    for (; index < pool.length; index++) {
      ticket -= (pool[index] as T).weight;
      if (ticket < 0) break;
    }
    const [item] = pool.splice(index, 1) as [T];
    total -= item.weight;
    picked.push(item);
  }
  return picked;
}
