import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { FailOpen } from "./outage.js";

/** Key prefix of the per-source sorted sets of acknowledged notification ids. */
export const ACKNOWLEDGEMENTS_PREFIX = "ovation:acked";

/** Ids kept per browser source (the newest; an alert log keeps fewer per user). */
const KEPT_PER_SOURCE = 2_000;

/**
 * Which alerts each browser source acknowledged, in Redis, for every node: an acknowledgement is
 * recorded here whichever node it reaches, even one whose copy of the alert log does not hold the
 * alert yet, and every node's replay skips what is here. Each source's set keeps its newest ids for
 * `maxAgeMs` (the backlog's age limit). When Redis cannot be reached, recording is skipped and
 * lookups answer nothing (the alert log's own acknowledgements still count).
 */
export class SharedAcknowledgements {
  readonly #outage: FailOpen;

  constructor(
    private readonly redis: Redis,
    private readonly maxAgeMs: number,
    logger?: Logger,
  ) {
    this.#outage = new FailOpen("acknowledgements", logger);
  }

  #key(userId: number, browserSourceId: number): string {
    return `${ACKNOWLEDGEMENTS_PREFIX}:${userId}:${browserSourceId}`;
  }

  /** Records that the source acknowledged `notificationId`. */
  async record(userId: number, browserSourceId: number, notificationId: string, now = Date.now()): Promise<void> {
    const key = this.#key(userId, browserSourceId);
    await this.#outage.run(
      async () => {
        const results = await this.redis
          .multi()
          .zadd(key, now, notificationId)
          .zremrangebyscore(key, "-inf", now - this.maxAgeMs)
          .zremrangebyrank(key, 0, -(KEPT_PER_SOURCE + 1))
          .pexpire(key, this.maxAgeMs)
          .exec();
        const failed = results?.find(([error]) => error !== null)?.[0];
        if (failed) throw failed;
      },
      () => undefined,
    );
  }

  /** The ids among `notificationIds` the source acknowledged (through any node). */
  async acknowledged(userId: number, browserSourceId: number, notificationIds: readonly string[]): Promise<Set<string>> {
    if (notificationIds.length === 0) return new Set();
    const key = this.#key(userId, browserSourceId);
    return this.#outage.run(
      async () => {
        const scores = await this.redis.zmscore(key, ...notificationIds);
        return new Set(notificationIds.filter((_id, i) => scores[i] !== null));
      },
      () => new Set<string>(),
    );
  }
}
