/**
 * Failed authentications per key in fixed windows: {@link FailedAuthThrottle} in this process's
 * memory (the default), or shared by every node through Redis (redis/failed-auth.ts).
 */
export interface FailedAuthCounter {
  /** Seconds until `key` may try again, or 0 when it is not throttled. */
  retryAfterSeconds(key: string): number | Promise<number>;
  /** Records one failed check for `key`. */
  recordFailure(key: string): void | Promise<void>;
}

/**
 * Counts failed authentications per key (a client address, or a credential's hash; see
 * `checkBearer`) in fixed one-minute windows. The global rate limit is keyed by token, so a client
 * sending a different invalid token on every request would never reach it; this closes that gap: past
 * `maxFailures` failures in a window, the key is throttled (429) until the window ends.
 */
export class FailedAuthThrottle implements FailedAuthCounter {
  private readonly windows = new Map<string, { start: number; failures: number }>();

  constructor(
    /** Failures allowed per window; the next check of the key is throttled. */
    readonly maxFailures: number,
    readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `address` (any key) may try again, or 0 when it is not throttled. */
  retryAfterSeconds(address: string): number {
    const window = this.current(address);
    if (!window || window.failures < this.maxFailures) return 0;
    return Math.max(1, Math.ceil((window.start + this.windowMs - this.now()) / 1000));
  }

  /** Records one failed check for `address` (any key). */
  recordFailure(address: string): void {
    const window = this.current(address);
    if (window) window.failures++;
    else this.windows.set(address, { start: this.now(), failures: 1 });
    // Bounded memory: a flood from many addresses drops the oldest windows first.
    if (this.windows.size > 100_000) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
  }

  private current(address: string): { start: number; failures: number } | undefined {
    const window = this.windows.get(address);
    if (window && this.now() - window.start >= this.windowMs) {
      this.windows.delete(address);
      return undefined;
    }
    return window;
  }
}
