import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { FailOpen } from "./outage.js";

/** Key prefix of the per-user sorted sets of claimed notification ids. */
export const NOTIFICATION_IDS_PREFIX = "ovation:notification-ids";

/**
 * The notification ids every node has published, per user, in Redis: the de-duplication memory
 * shared between nodes. {@link claim} adds an id atomically (ZADD NX) and answers whether it was
 * new, so two nodes given the same id at the same moment publish it once. Each user's set keeps
 * the newest `perUser` ids (scored by time), like the in-process memory.
 */
export class SharedNotificationIds {
  readonly #outage: FailOpen;

  constructor(
    private readonly redis: Redis,
    private readonly perUser: number,
    logger?: Logger,
  ) {
    this.#outage = new FailOpen("notification ids", logger);
  }

  /**
   * Claims `id` for `userId`: true when no node had published it (this caller publishes it), false
   * when it is a duplicate. When Redis cannot be reached it answers true (the node's own memory
   * still de-duplicates what it saw): an outage may let a duplicate through, never lose an alert.
   */
  async claim(userId: number, id: string): Promise<boolean> {
    const key = `${NOTIFICATION_IDS_PREFIX}:${userId}`;
    return this.#outage.run(
      async () => {
        const results = await this.redis.multi().zadd(key, "NX", Date.now(), id).zremrangebyrank(key, 0, -(this.perUser + 1)).exec();
        const [added, error] = [results?.[0]?.[1], results?.[0]?.[0]];
        if (error) throw error;
        return added !== 0;
      },
      () => true,
    );
  }
}
