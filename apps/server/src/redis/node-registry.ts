import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { FailOpen } from "./outage.js";

/** Key prefix of the registry: `<prefix>:ids` (the set of ids ever seen) and `<prefix>:<id>` (one per live node). */
export const NODE_REGISTRY_PREFIX = "ovation:nodes";

/** Options of {@link NodeRegistry.start}. */
export interface NodeRegistryOptions {
  /** This node's id (`OVATION_SERVER_ID`). */
  serverId: string;
  /** How long a node stays listed after its last heartbeat; heartbeats run three times per TTL. */
  ttlMs: number;
  logger?: Logger;
}

/**
 * The live nodes, kept in Redis: every node writes `ovation:nodes:<id>` with a TTL (Redis's own
 * clock, so node clocks may differ) three times per TTL and adds its id to the set
 * `ovation:nodes:ids`. A node that stops or dies drops out of {@link liveIds} once its key expires,
 * so `/server-ids` (and so the `serverid` sticky cookie) only name nodes that answer. A clean stop
 * removes the key at once. Two processes started with the same id are reported (each key holds the
 * random instance id of its writer).
 */
export class NodeRegistry {
  readonly #redis: Redis;
  readonly #options: NodeRegistryOptions;
  readonly #instance = randomUUID();
  #timer: NodeJS.Timeout | null = null;
  #clashReported = false;
  /** Heartbeats and reads log one warning per Redis outage (beats run every third of the TTL). */
  readonly #outage: FailOpen;

  private constructor(redis: Redis, options: NodeRegistryOptions) {
    this.#redis = redis;
    this.#options = options;
    this.#outage = new FailOpen("the live nodes (/server-ids lists only this node, heartbeats retried)", options.logger);
  }

  /** Registers this node (first heartbeat awaited, so a started node is listed) and keeps it alive. */
  static async start(redis: Redis, options: NodeRegistryOptions): Promise<NodeRegistry> {
    const registry = new NodeRegistry(redis, options);
    await registry.#beat(true);
    registry.#timer = setInterval(() => void registry.#beat(false), Math.max(100, Math.floor(options.ttlMs / 3)));
    registry.#timer.unref();
    return registry;
  }

  get #key(): string {
    return `${NODE_REGISTRY_PREFIX}:${this.#options.serverId}`;
  }

  async #beat(first: boolean): Promise<void> {
    await this.#outage.run(async () => {
      const [[, previous] = [null, null]] =
        (await this.#redis
          .multi()
          .set(this.#key, this.#instance, "PX", this.#options.ttlMs, "GET")
          .sadd(`${NODE_REGISTRY_PREFIX}:ids`, this.#options.serverId)
          .exec()) ?? [];
      // On the first beat an older key may be this node's own previous life (a restart within the TTL).
      if (!first && typeof previous === "string" && previous !== this.#instance && !this.#clashReported) {
        this.#clashReported = true;
        this.#options.logger?.error(
          { serverId: this.#options.serverId },
          "another running node uses the same OVATION_SERVER_ID; give every node its own id, or sticky sessions reach the wrong node",
        );
      }
    }, () => undefined);
  }

  /**
   * The ids of the nodes whose heartbeat has not expired, sorted, always including this node (it
   * answers, so it is live even while Redis is unreachable). Ids whose key expired are forgotten.
   */
  async liveIds(): Promise<string[]> {
    const self = this.#options.serverId;
    return this.#outage.run(
      async () => {
        const ids = await this.#redis.smembers(`${NODE_REGISTRY_PREFIX}:ids`);
        const others = ids.filter((id) => id !== self);
        if (others.length === 0) return [self];
        const values = await this.#redis.mget(others.map((id) => `${NODE_REGISTRY_PREFIX}:${id}`));
        const dead = others.filter((_, i) => values[i] === null);
        if (dead.length > 0) await this.#redis.srem(`${NODE_REGISTRY_PREFIX}:ids`, ...dead);
        return [self, ...others.filter((_, i) => values[i] !== null)].sort();
      },
      () => [self],
    );
  }

  /** Stops the heartbeat and removes this node's key (when it is still this instance's). */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    try {
      if ((await this.#redis.get(this.#key)) === this.#instance) await this.#redis.del(this.#key);
    } catch {
      // Redis is gone: the key expires on its own.
    }
  }
}
