// Shared by the chat benches: rates of a floor (a bare parse) and of our path over the same inputs,
// in alternating rounds, with the ratio taken per round (both sides of a round see the same load on
// the shared machine) and the median over rounds, printed with min and max (scripts/bench-figures.ts).
import { report, spreadOf, type Spread } from "./bench-figures.js";

/** Messages per second of `fn` over `inputs` for about `ms` milliseconds. */
export function rate(fn: (input: string) => void, inputs: readonly string[], ms: number): number {
  const start = process.hrtime.bigint();
  let n = 0;
  const limit = BigInt(ms) * 1_000_000n;
  while (process.hrtime.bigint() - start < limit) {
    for (let i = 0; i < 1000; i++) fn(inputs[(n + i) % inputs.length] as string);
    n += 1000;
  }
  return (n * 1e9) / Number(process.hrtime.bigint() - start);
}

/**
 * Medians over `rounds` alternating rounds: floor rate, our rate, and floor/ours per round. First
 * checks that `valid` holds for every input (a bench input our path rejects would flatter us).
 */
export function compareRates(
  floor: (input: string) => void,
  ours: (input: string) => void,
  inputs: readonly string[],
  rounds: number,
  valid: (input: string) => boolean,
): { floor: number; ours: number; ratio: number; spreads: { floor: Spread; ours: Spread; ratio: Spread }; rounds: number } {
  for (const input of inputs) if (!valid(input)) throw new Error(`bench input is not a valid chat event: ${input.slice(0, 80)}`);
  rate(floor, inputs, 300);
  rate(ours, inputs, 300);
  const floorRates: number[] = [];
  const ourRates: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const f = rate(floor, inputs, 150);
    const o = rate(ours, inputs, 150);
    floorRates.push(f);
    ourRates.push(o);
    ratios.push(f / o);
  }
  const spreads = { floor: spreadOf(floorRates), ours: spreadOf(ourRates), ratio: spreadOf(ratios) };
  return { floor: spreads.floor.median, ours: spreads.ours.median, ratio: spreads.ratio.median, spreads, rounds };
}

/**
 * Prints and records (for `npm run bench -- --repeat N`) the three figures of a comparison: the
 * floor's rate, ours, and floor/ours ("x slower than the floor"), each with min and max.
 */
export function reportComparison(id: string, labels: { floor: string; ours: string }, result: ReturnType<typeof compareRates>, target?: number): void {
  report({ id: `${id}.floor`, label: labels.floor, unit: "msg/s", rounds: result.rounds, value: result.spreads.floor, better: "higher" });
  report({ id: `${id}.ours`, label: labels.ours, unit: "msg/s", rounds: result.rounds, value: result.spreads.ours, better: "higher" });
  report({
    id: `${id}.ratio`,
    label: "    floor / ours (x slower than the floor)",
    unit: "x",
    rounds: result.rounds,
    value: result.spreads.ratio,
    better: "lower",
    ...(target === undefined ? {} : { target: { op: "<=" as const, value: target } }),
  });
}

/** `1234567` -> `1,234,567`. */
export const formatRate = (n: number): string => Math.round(n).toLocaleString("en-US");
