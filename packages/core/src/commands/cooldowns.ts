/**
 * The last use of each command per channel (global cooldown) and per channel and viewer (user
 * cooldown). Entries older than the longest cooldown are swept now and then so memory stays bounded.
 */
export class CooldownTracker {
  readonly #lastUse = new Map<string, number>();
  readonly #now: () => number;
  #nextSweep = 0;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Seconds left before `key` may be used again under `cooldownSeconds` (0 when it may now). */
  remainingSeconds(key: string, cooldownSeconds: number): number {
    if (cooldownSeconds <= 0) return 0;
    const last = this.#lastUse.get(key);
    if (last === undefined) return 0;
    const left = last + cooldownSeconds * 1000 - this.#now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  /** Records a use of `key` now. */
  use(key: string): void {
    const now = this.#now();
    this.#lastUse.set(key, now);
    if (now >= this.#nextSweep && this.#lastUse.size > 10_000) this.#sweep(now);
  }

  #sweep(now: number): void {
    // Cooldowns are at most one day (COMMAND_LIMITS.cooldownSeconds).
    const horizon = now - 86_400_000;
    for (const [key, last] of this.#lastUse) if (last <= horizon) this.#lastUse.delete(key);
    this.#nextSweep = now + 60_000;
  }
}
