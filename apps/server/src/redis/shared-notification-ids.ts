import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { FailOpen } from "./outage.js";
import { withScripts } from "./scripts.js";

/** Key prefix of the per-user sorted sets of claimed notification ids. */
export const NOTIFICATION_IDS_PREFIX = "ovation:notification-ids";

// Adds the id unless present, scored after every id the set holds (the caller's time, or one past
// the newest score when that is not later), and keeps the newest ARGV[3] ids. Scores by time alone
// tie within a millisecond, and ties rank by id: trimming would then drop the id that sorts first,
// not the oldest. Answers 1 when the id was new.
const CLAIM = `
local score = tonumber(ARGV[1])
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if newest[2] and tonumber(newest[2]) >= score then score = tonumber(newest[2]) + 1 end
local added = redis.call('ZADD', KEYS[1], 'NX', score, ARGV[2])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -1 - tonumber(ARGV[3]))
return added`;

interface ClaimCommands {
  ovationClaimNotificationId(key: string, now: number, id: string, perUser: number): Promise<number>;
}

/**
 * The notification ids every node has published, per user, in Redis: the de-duplication memory
 * shared between nodes. {@link claim} adds an id atomically (ZADD NX) and answers whether it was
 * new, so two nodes given the same id at the same moment publish it once. Each user's set keeps
 * the newest `perUser` ids (in the order Redis received them), like the in-process memory.
 */
export class SharedNotificationIds {
  readonly #outage: FailOpen;
  readonly #redis: Redis & ClaimCommands;

  constructor(
    redis: Redis,
    private readonly perUser: number,
    logger?: Logger,
  ) {
    this.#outage = new FailOpen("notification ids", logger);
    this.#redis = withScripts<ClaimCommands>(redis, { ovationClaimNotificationId: { numberOfKeys: 1, lua: CLAIM } });
  }

  /**
   * Claims `id` for `userId`: true when no node had published it (this caller publishes it), false
   * when it is a duplicate. When Redis cannot be reached it answers true (the node's own memory
   * still de-duplicates what it saw): an outage may let a duplicate through, never lose an alert.
   */
  async claim(userId: number, id: string): Promise<boolean> {
    const key = `${NOTIFICATION_IDS_PREFIX}:${userId}`;
    return this.#outage.run(
      async () => (await this.#redis.ovationClaimNotificationId(key, Date.now(), id, this.perUser)) !== 0,
      () => true,
    );
  }
}
