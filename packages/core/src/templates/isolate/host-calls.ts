import { isSafe, rt } from "./runtime.js";

/** Thrown to unwind a render that needs an answer from the host (see `state.need`). */
export const NEED = Object.freeze({ need: true });

/**
 * A template function answered by the host (proxy_pass, json, db...). The render is replayed: calls
 * already answered return their recorded result; the first new call stops the render with {@link NEED}.
 */
export function hostFunction(name: string): (...args: unknown[]) => unknown {
  return function (...raw: unknown[]) {
    const s = rt.state;
    if (!s) throw new Error(name + " is not available here");
    const args = raw.map((a) => (isSafe(a) ? a.val : a));
    const argsJson = JSON.stringify(args, (_k, x: unknown) => (typeof x === "function" ? null : x));
    if (argsJson.length > rt.limits.maxArgumentChars) throw new RangeError(name + ": arguments are longer than " + rt.limits.maxArgumentChars + " characters");
    const index = s.calls++;
    if (index >= rt.limits.maxCalls) {
      s.limitHit = true;
      throw new RangeError("more than " + rt.limits.maxCalls + " template function calls");
    }
    const known = s.results[index];
    if (known) {
      if (known[0] !== name || known[1] !== argsJson) throw new Error("template function calls changed between runs");
      return JSON.parse(JSON.stringify(known[2])) as unknown;
    }
    s.need = [name, argsJson];
    throw NEED;
  };
}
