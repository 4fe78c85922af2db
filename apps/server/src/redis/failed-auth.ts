import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { FailedAuthThrottle } from "../auth/failed-auth-throttle.js";
import type { FailedAuthCounter } from "../auth/failed-auth-throttle.js";
import { FailOpen } from "./outage.js";
import { RedisWindowCounter } from "./window-counter.js";

/**
 * The failed-authentication throttle shared by every node: the same fixed windows as
 * {@link FailedAuthThrottle}, counted in Redis (INCR + PEXPIRE in one script). While Redis fails, each
 * node counts in its own memory (logged): bearer tokens are 256-bit secrets nobody guesses, so this
 * throttle is flood control and the API stays up rather than refusing every request.
 */
export class RedisFailedAuthThrottle implements FailedAuthCounter {
  readonly #counter: RedisWindowCounter;
  readonly #local: FailedAuthThrottle;
  readonly #outage: FailOpen;

  constructor(
    redis: Redis,
    private readonly maxFailures: number,
    private readonly windowMs = 60_000,
    logger?: Logger,
  ) {
    this.#counter = new RedisWindowCounter(redis, "ovation:auth-failures:");
    this.#local = new FailedAuthThrottle(maxFailures, windowMs);
    this.#outage = new FailOpen("failed-authentication counters", logger);
  }

  retryAfterSeconds(key: string): Promise<number> {
    return this.#outage.run(
      async () => {
        const { count, ttlMs } = await this.#counter.read(key);
        return count < this.maxFailures ? 0 : Math.max(1, Math.ceil(ttlMs / 1000));
      },
      () => this.#local.retryAfterSeconds(key),
    );
  }

  async recordFailure(key: string): Promise<void> {
    await this.#outage.run(
      async () => {
        await this.#counter.increment(key, this.windowMs);
      },
      () => this.#local.recordFailure(key),
    );
  }
}
