/**
 * A sliding-window limit per key (a channel): at most `limit` calls in any `windowMs`. The clock is
 * injectable so tests move time by hand.
 */
export class SlidingWindowLimiter {
  /** Per key: the times of its calls, oldest first, from `head` on (entries before it have expired). */
  readonly #calls = new Map<string, { times: number[]; head: number }>();
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
      calls = { times: [], head: 0 };
      this.#calls.set(key, calls);
    }
    const { times } = calls;
    while (calls.head < times.length && (times[calls.head] as number) <= since) calls.head++;
    // Expired entries are dropped in bulk, so a large limit costs O(1) per call, not a shift of the window.
    if (calls.head > 64 && calls.head * 2 > times.length) {
      times.splice(0, calls.head);
      calls.head = 0;
    }
    if (times.length - calls.head >= this.#limit) return false;
    times.push(now);
    return true;
  }

  /** Milliseconds until `key` may call again (0 when it may now). */
  retryAfterMs(key: string): number {
    const calls = this.#calls.get(key);
    if (calls === undefined || calls.times.length - calls.head < this.#limit) return 0;
    return Math.max(0, (calls.times[calls.head] as number) + this.#windowMs - this.#now());
  }
}
