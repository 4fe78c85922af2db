// Shared by every bench: figures taken as the median of alternating rounds of ours and the
// reference in the same process run, printed with their min and max, and recorded (one JSON line per
// figure) in the file named by OVATION_BENCH_FIGURES when scripts/bench.mjs runs the bench, so that
// `npm run bench -- --repeat 3` can print each figure's median and spread across runs.
import { appendFileSync } from "node:fs";

/** Rounds of ours and the reference a figure is the median of (the floor is five). */
export const MIN_ROUNDS = 5;

/** The median of a set of values with its extremes. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** Median (the lower middle for an even count: never an average of two rounds), min and max. */
export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error("a spread needs at least one value");
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor((sorted.length - 1) / 2)] as number, min: sorted[0] as number, max: sorted[sorted.length - 1] as number };
}

/** Per-round ratios `ours[i] / reference[i]`: both sides of a round saw the same load. */
export function ratiosOf(ours: readonly number[], reference: readonly number[]): number[] {
  return ours.map((value, i) => value / (reference[i] as number));
}

/**
 * Runs `sides` in turn, `rounds` times (A B A B ...; the order of the object), after one warm-up
 * round of each that is not kept. Each side returns its measure of one round.
 */
export async function alternate<K extends string, T>(rounds: number, sides: Record<K, () => T | Promise<T>>): Promise<Record<K, T[]>> {
  if (rounds < MIN_ROUNDS) throw new RangeError(`a figure needs at least ${MIN_ROUNDS} rounds, got ${rounds}`);
  const names = Object.keys(sides) as K[];
  for (const name of names) await sides[name]();
  const out = Object.fromEntries(names.map((name) => [name, [] as T[]])) as Record<K, T[]>;
  for (let round = 0; round < rounds; round++) for (const name of names) out[name].push(await sides[name]());
  return out;
}

/** Rounds of a bench: BENCH_ROUNDS (at least {@link MIN_ROUNDS}) or `fallback`. */
export function benchRounds(fallback = MIN_ROUNDS): number {
  const value = Number(process.env["BENCH_ROUNDS"] ?? fallback);
  return Number.isInteger(value) && value >= MIN_ROUNDS ? value : fallback;
}

/** How a figure's value is printed. */
export type Unit = "msg/s" | "msg/CPU-s" | "ms" | "µs" | "x" | "/s" | "/CPU-s" | "KiB" | "writes";

/** `1234567` -> `1,234,567`; ratios and milliseconds keep two decimals. */
export function formatValue(value: number, unit: Unit): string {
  if (unit === "x" || unit === "ms" || unit === "µs" || unit === "KiB") return value.toFixed(2);
  return Math.round(value).toLocaleString("en-US");
}

/** `median (min .. max)` of a spread in its unit. */
export function formatSpread(spread: Spread, unit: Unit): string {
  return `${formatValue(spread.median, unit)} ${unit} (min ${formatValue(spread.min, unit)}, max ${formatValue(spread.max, unit)})`;
}

/** One figure a README or a target quotes. */
export interface Figure {
  /** Stable key across runs (`commands.c.cpu`). */
  readonly id: string;
  /** What it measures, as the README names it. */
  readonly label: string;
  readonly unit: Unit;
  /** Rounds the spread is taken over. */
  readonly rounds: number;
  readonly value: Spread;
  /** Whether larger is better (rates, ratios of ours to the reference) or smaller (latencies, times). */
  readonly better: "higher" | "lower";
  /** The target, when the figure has one: `>= 0.5`, `<= 1.3`... compared with the median. */
  readonly target?: { readonly op: ">=" | "<="; readonly value: number };
}

/** Whether the median meets the figure's target (true when it has none). */
export function meets(figure: Pick<Figure, "value" | "target">): boolean {
  if (figure.target === undefined) return true;
  return figure.target.op === ">=" ? figure.value.median >= figure.target.value : figure.value.median <= figure.target.value;
}

/** The label of every figure this process has reported, by id: an id says which figure it is across runs. */
const reported = new Map<string, string>();

/**
 * Prints a figure with its spread (and target), and records it for scripts/bench.mjs. An id reported
 * twice in one process is a bench bug (two figures would be summarised as one across runs): it throws.
 */
export function report(figure: Figure, indent = ""): void {
  const earlier = reported.get(figure.id);
  if (earlier !== undefined) throw new Error(`bench figure id "${figure.id}" reported twice: "${earlier}" and "${figure.label}"`);
  reported.set(figure.id, figure.label);
  const target = figure.target === undefined ? "" : `   target ${figure.target.op} ${formatValue(figure.target.value, figure.unit)}: ${meets(figure) ? "met" : "NOT met"}`;
  console.log(`${indent}${figure.label.padEnd(Math.max(0, 62 - indent.length))} ${formatSpread(figure.value, figure.unit)}, ${figure.rounds} rounds${target}`);
  const file = process.env["OVATION_BENCH_FIGURES"];
  if (file) appendFileSync(file, `${JSON.stringify(figure)}\n`);
}
