import { IdentityError } from "./identity-errors.js";

/**
 * Timestamps of events per key within a sliding window: what the sign-in, email-change and
 * password-reset limits count. {@link TimeLog} keeps them in this process's memory (the default); a
 * server running several nodes passes a shared one (Redis, see redis/time-log.ts) so every node sees
 * every node's failures.
 */
export interface TimeLogStore {
  /** The key's timestamps inside the window, oldest first. */
  recent(key: string): number[] | Promise<number[]>;
  /** Records one event now. */
  add(key: string): void | Promise<void>;
  /** Forgets the key. */
  clear(key: string): void | Promise<void>;
}

/** Makes the time log of one limit (its name keeps limits apart in a shared store). */
export type TimeLogFactory = (name: string, windowMs: number, now: () => number) => TimeLogStore;

/** Timestamps per key within a sliding window, in the memory of this process (oldest keys dropped beyond `maxKeys`). */
export class TimeLog implements TimeLogStore {
  private readonly events = new Map<string, number[]>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
    private readonly maxKeys = 10_000,
  ) {}

  recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    return (this.events.get(key) ?? []).filter((t) => t > since);
  }

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

/** The default {@link TimeLogFactory}: this process's memory. */
export const inMemoryTimeLogs: TimeLogFactory = (_name, windowMs, now) => new TimeLog(windowMs, now);

/**
 * Runs one operation of a (shared) counter; a failure of the log itself (Redis unreachable) becomes
 * `OVATION_ERR_IDENTITY_COUNTERS_UNAVAILABLE` (503): the identity limits fail closed.
 */
export async function counted<T>(operation: () => T | Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw new IdentityError("OVATION_ERR_IDENTITY_COUNTERS_UNAVAILABLE", { cause: error });
  }
}

/** Whether `error` says the shared failure counters cannot be reached. */
export function isCountersUnavailable(error: unknown): boolean {
  return error instanceof IdentityError && error.code === "OVATION_ERR_IDENTITY_COUNTERS_UNAVAILABLE";
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
  private readonly log: TimeLogStore;

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly now: () => number,
    log: TimeLogStore = new TimeLog(policy.windowMs, now),
  ) {
    this.log = log;
  }

  /** Milliseconds the key must still wait (0: it may try now). */
  async waitMs(key: string): Promise<number> {
    const recent = await counted(() => this.log.recent(key));
    const over = recent.length - this.policy.free;
    if (over < 0) return 0;
    const delay = Math.min(this.policy.baseMs * 2 ** over, this.policy.maxMs);
    const last = recent[recent.length - 1] ?? 0;
    return Math.max(0, last + delay - this.now());
  }

  /** Records one failure. */
  async fail(key: string): Promise<void> {
    await counted(() => this.log.add(key));
  }

  /** Forgets a key's failures (after a success). */
  async clear(key: string): Promise<void> {
    await counted(() => this.log.clear(key));
  }
}

/** At most `limit` events per key within `windowMs` (sliding). */
export class SlidingWindowLimit {
  private readonly log: TimeLogStore;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    log: TimeLogStore = new TimeLog(windowMs, now),
  ) {
    this.log = log;
  }

  /** Milliseconds until the key may have another event (0: now). */
  async waitMs(key: string): Promise<number> {
    const recent = await counted(() => this.log.recent(key));
    if (recent.length < this.limit) return 0;
    return Math.max(1, (recent[recent.length - this.limit] ?? 0) + this.windowMs - this.now());
  }

  /** Records one event. */
  async hit(key: string): Promise<void> {
    await counted(() => this.log.add(key));
  }
}

/** Whole seconds for a `Retry-After` header (at least 1). */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}
