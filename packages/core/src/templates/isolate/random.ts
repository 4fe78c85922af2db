import { rt } from "./runtime.js";
import { isObject, str, values } from "./values.js";
import { isSafe } from "./runtime.js";

/** A seeded pseudo-random generator (mulberry32), so a render is reproducible from its seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function rand(): number {
  return rt.state ? rt.state.rand() : 0.5;
}

function randomInt(min: number, max: number): number {
  return min + Math.floor(rand() * (max - min + 1));
}

/** Twig's `random()`: a number, an item of a list or hash, a character of a string, or an integer in a range. */
export function random(a?: unknown, b?: unknown): unknown {
  if (a === undefined || a === null) return Math.floor(rand() * 2147483648);
  if (b !== undefined && b !== null) {
    let min = Math.ceil(Number(a));
    let max = Math.floor(Number(b));
    if (!isFinite(min) || !isFinite(max)) throw new TypeError("random(min, max) needs two numbers");
    if (max < min) [min, max] = [max, min];
    return randomInt(min, max);
  }
  if (Array.isArray(a) || isObject(a)) {
    const list = values(a);
    return list.length ? list[randomInt(0, list.length - 1)] : null;
  }
  if (typeof a === "string" || isSafe(a)) {
    const chars = Array.from(str(a));
    return chars.length ? chars[randomInt(0, chars.length - 1)] : "";
  }
  const n = Math.floor(Number(a));
  if (!isFinite(n)) throw new TypeError("random(n) needs a number, a string or a list");
  return n >= 0 ? randomInt(0, n) : randomInt(n, 0);
}
