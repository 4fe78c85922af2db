import { checkSize } from "./values.js";

/** Twig's `range` and `..`: both ends included, letters or numbers, the step's sign follows the direction. */
export function twigRange(a: unknown, b: unknown, step?: unknown): unknown[] {
  let s = step === undefined ? 1 : Number(step);
  if (typeof a === "string" && typeof b === "string" && a.length === 1 && b.length === 1) {
    return twigRange(a.charCodeAt(0), b.charCodeAt(0), s).map((c) => String.fromCharCode(c as number));
  }
  const start = Number(a);
  const end = Number(b);
  if (!isFinite(start) || !isFinite(end) || !isFinite(s) || s === 0) throw new RangeError("range needs finite numbers and a non-zero step");
  s = Math.abs(s) * (end < start ? -1 : 1);
  checkSize(Math.floor(Math.abs(end - start) / Math.abs(s)) + 1, "range");
  const out: number[] = [];
  for (let i = start; s > 0 ? i <= end : i >= end; i += s) out.push(i);
  return out;
}
