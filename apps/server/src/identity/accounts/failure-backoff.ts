/** Timestamps per key within a sliding window, in the memory of this process (oldest keys dropped beyond `maxKeys`). */
class TimeLog {
  private readonly events = new Map<string, number[]>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
    private readonly maxKeys: number,
  ) {}

  /** The key's timestamps inside the window, oldest first. */
  recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    return (this.events.get(key) ?? []).filter((t) => t > since);
  }

  /** Records one event now. */
  add(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.events.delete(key);
    this.events.set(key, list);
    if (this.events.size > this.maxKeys) {
      const oldest = this.events.keys().next().value;
      if (oldest !== undefined) this.events.delete(oldest);
    }
  }

  clear(key: string): void {
    this.events.delete(key);
  }
}

/** How a key slows down after failures: `free` failures within `windowMs` cost nothing, then each waits twice as long as the last, up to `maxMs`. */
export interface BackoffPolicy {
  free: number;
  baseMs: number;
  maxMs: number;
  windowMs: number;
}

/**
 * Counts failures per key and answers how long the key must wait before its next attempt. It slows
 * rather than locks: the wait never exceeds `maxMs`, and it runs from the key's last failure, so a
 * key that stops failing is free again soon.
 */
export class FailureBackoff {
  private readonly log: TimeLog;

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly now: () => number,
    maxKeys = 10_000,
  ) {
    this.log = new TimeLog(policy.windowMs, now, maxKeys);
  }

  /** Milliseconds the key must still wait (0: it may try now). */
  waitMs(key: string): number {
    const recent = this.log.recent(key);
    const over = recent.length - this.policy.free;
    if (over < 0) return 0;
    const delay = Math.min(this.policy.baseMs * 2 ** over, this.policy.maxMs);
    const last = recent[recent.length - 1] ?? 0;
    return Math.max(0, last + delay - this.now());
  }

  /** Records one failure. */
  fail(key: string): void {
    this.log.add(key);
  }

  /** Forgets a key's failures (after a success). */
  clear(key: string): void {
    this.log.clear(key);
  }
}

/** At most `limit` events per key within `windowMs` (sliding). */
export class SlidingWindowLimit {
  private readonly log: TimeLog;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    maxKeys = 10_000,
  ) {
    this.log = new TimeLog(windowMs, now, maxKeys);
  }

  /** Milliseconds until the key may have another event (0: now). */
  waitMs(key: string): number {
    const recent = this.log.recent(key);
    if (recent.length < this.limit) return 0;
    return Math.max(1, (recent[recent.length - this.limit] ?? 0) + this.windowMs - this.now());
  }

  /** Records one event. */
  hit(key: string): void {
    this.log.add(key);
  }
}

/** Whole seconds for a `Retry-After` header (at least 1). */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}
