/** One cooldown to check and take: a key and the cooldown it is under (seconds; 0 = none). */
export interface CooldownEntry {
  key: string;
  seconds: number;
}

/**
 * What {@link CooldownStore.claim} decided: either every entry was taken (and `release` gives them
 * back, for a command that did not run after all), or the first entry still cooling down, by index.
 */
export type CooldownClaim =
  | { ok: true; release(): void | Promise<void> }
  | { ok: false; index: number; remainingSeconds: number };

/**
 * Where the command runtime keeps its cooldowns. The default is {@link CooldownTracker} (this
 * process's memory); a server running several nodes passes a shared one (Redis) so that a cooldown
 * taken on one node holds on all of them. `claim` must be atomic: of two claims racing for the same
 * free key (on any node), exactly one succeeds.
 */
export interface CooldownStore {
  /** Seconds left before `key` may be used again under `cooldownSeconds` (0 when it may now); takes nothing. */
  remainingSeconds(key: string, cooldownSeconds: number): number | Promise<number>;
  /**
   * Checks `entries` in order and, when none is cooling down, takes them all at once. With `force`
   * (moderators, the broadcaster) nothing is checked and every entry is taken.
   */
  claim(entries: readonly CooldownEntry[], options?: { force?: boolean }): CooldownClaim | Promise<CooldownClaim>;
}

const NOTHING_TO_RELEASE = (): void => undefined;

/**
 * The last use of each command per channel (global cooldown) and per channel and viewer (user
 * cooldown), in this process's memory. Entries older than the longest cooldown are swept now and
 * then so memory stays bounded.
 */
export class CooldownTracker implements CooldownStore {
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

  /** Checks and takes `entries` (synchronous, so atomic within this process). */
  claim(entries: readonly CooldownEntry[], options: { force?: boolean } = {}): CooldownClaim {
    if (options.force !== true) {
      for (let index = 0; index < entries.length; index++) {
        const entry = entries[index] as CooldownEntry;
        const left = this.remainingSeconds(entry.key, entry.seconds);
        if (left > 0) return { ok: false, index, remainingSeconds: left };
      }
    }
    // An entry without a cooldown (0 s) is not recorded, as the shared Redis store does not: nothing
    // could ever be refused by it, and a viewer key per message would only fill memory.
    const timed = entries.filter((entry) => entry.seconds > 0);
    if (timed.length === 0) return { ok: true, release: NOTHING_TO_RELEASE };
    const previous = timed.map((entry) => this.#lastUse.get(entry.key));
    // One clock reading for every entry: `release` recognises its own uses by this time.
    const taken = this.#now();
    for (const entry of timed) this.#record(entry.key, taken);
    return {
      ok: true,
      release: () => {
        timed.forEach((entry, i) => {
          if (this.#lastUse.get(entry.key) !== taken) return;
          const before = previous[i];
          if (before === undefined) this.#lastUse.delete(entry.key);
          else this.#lastUse.set(entry.key, before);
        });
      },
    };
  }

  /** Records a use of `key` now. */
  use(key: string): void {
    this.#record(key, this.#now());
  }

  #record(key: string, now: number): void {
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
