import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { FailOpen } from "./outage.js";
import { withScripts } from "./scripts.js";

/** Key prefix of the per-source sorted sets of acknowledged notification ids. */
export const ACKNOWLEDGEMENTS_PREFIX = "ovation:acked";

/** Ids kept per browser source (the newest; an alert log keeps fewer per user). */
const KEPT_PER_SOURCE = 2_000;

// Adds the id, drops those older than the age limit and beyond the newest KEPT_PER_SOURCE, renews
// the key's expiry: atomic as the MULTI of these four was, and one command instead of six (an
// acknowledgement comes with every alert shown).
const RECORD = `
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

interface AcknowledgementCommands {
  ovationRecordAcknowledgement(key: string, now: number, notificationId: string, oldest: number, lastRankDropped: number, ttlMs: number): Promise<number>;
}

/**
 * Which alerts each browser source acknowledged, in Redis, for every node: an acknowledgement is
 * recorded here whichever node it reaches, even one whose copy of the alert log does not hold the
 * alert yet, and every node's replay skips what is here. Each source's set keeps its newest ids for
 * `maxAgeMs` (the backlog's age limit). When Redis cannot be reached, recording is skipped and
 * lookups answer nothing (the alert log's own acknowledgements still count).
 */
export class SharedAcknowledgements {
  readonly #outage: FailOpen;
  readonly #redis: Redis & AcknowledgementCommands;

  constructor(
    redis: Redis,
    private readonly maxAgeMs: number,
    logger?: Logger,
  ) {
    this.#outage = new FailOpen("acknowledgements", logger);
    this.#redis = withScripts<AcknowledgementCommands>(redis, { ovationRecordAcknowledgement: { numberOfKeys: 1, lua: RECORD } });
  }

  #key(userId: number, browserSourceId: number): string {
    return `${ACKNOWLEDGEMENTS_PREFIX}:${userId}:${browserSourceId}`;
  }

  /** Records that the source acknowledged `notificationId`. */
  async record(userId: number, browserSourceId: number, notificationId: string, now = Date.now()): Promise<void> {
    const key = this.#key(userId, browserSourceId);
    await this.#outage.run(
      async () => {
        await this.#redis.ovationRecordAcknowledgement(key, now, notificationId, now - this.maxAgeMs, -(KEPT_PER_SOURCE + 1), this.maxAgeMs);
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
        const scores = await this.#redis.zmscore(key, ...notificationIds);
        return new Set(notificationIds.filter((_id, i) => scores[i] !== null));
      },
      () => new Set<string>(),
    );
  }
}
