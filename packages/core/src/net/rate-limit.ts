/**
 * A sliding-window limit per key (a channel): at most `limit` calls in any `windowMs`. The clock is
 * injectable so tests move time by hand.
 */
export class SlidingWindowLimiter {
  readonly #calls = new Map<string, number[]>();
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(options: { limit: number; windowMs: number; now?: () => number }) {
    this.#limit = options.limit;
    this.#windowMs = options.windowMs;
    this.#now = options.now ?? Date.now;
  }

  /** Records a call for `key` and returns true, or returns false (recording nothing) when over the limit. */
  tryTake(key: string): boolean {
    const now = this.#now();
    const since = now - this.#windowMs;
    let calls = this.#calls.get(key);
    if (calls === undefined) {
      calls = [];
      this.#calls.set(key, calls);
    }
    let drop = 0;
    while (drop < calls.length && (calls[drop] as number) <= since) drop++;
    if (drop > 0) calls.splice(0, drop);
    if (calls.length >= this.#limit) return false;
    calls.push(now);
    return true;
  }

  /** Milliseconds until `key` may call again (0 when it may now). */
  retryAfterMs(key: string): number {
    const calls = this.#calls.get(key);
    if (calls === undefined || calls.length < this.#limit) return 0;
    return Math.max(0, (calls[0] as number) + this.#windowMs - this.#now());
  }
}
