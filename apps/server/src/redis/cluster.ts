import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { closeRedis, openRedis } from "./connection.js";
import { NodeRegistry } from "./node-registry.js";
import { SharedNotificationIds } from "./shared-notification-ids.js";

/** What a node shares with the others through Redis for realtime delivery. */
export interface Cluster {
  /** The socket.io adapter's connection (commands queue while Redis is away, so emits resume after). */
  readonly adapter: Redis;
  /** The live-node registry behind `/server-ids`. */
  readonly nodes: NodeRegistry;
  /** The de-duplication memory of notification ids shared between nodes. */
  readonly notificationIds: SharedNotificationIds;
  /** Leaves the registry and closes the connections. */
  close(): Promise<void>;
}

/** Options of {@link openCluster}. */
export interface OpenClusterOptions {
  redisUrl: string;
  serverId: string;
  /** TTL of this node's registry entry in ms. */
  nodeTtlMs: number;
  /** Notification ids kept per user. */
  notificationIdsPerUser: number;
  logger: Logger;
}

/**
 * Opens the Redis connections of the realtime layer: one for the socket.io adapter (which
 * duplicates it for its blocking stream reader and its subscriber), one failing fast for the
 * registry and the shared notification ids (an unreachable Redis must not hold requests). Fails
 * with `OVATION_ERR_REDIS_UNREACHABLE` when Redis does not answer at start.
 */
export async function openCluster(options: OpenClusterOptions): Promise<Cluster> {
  const { logger } = options;
  const adapter = await openRedis(options.redisUrl, { name: "adapter", logger });
  let shared: Redis;
  try {
    shared = await openRedis(options.redisUrl, { name: "nodes", logger, failFast: true });
  } catch (error) {
    await closeRedis(adapter);
    throw error;
  }
  const nodes = await NodeRegistry.start(shared, { serverId: options.serverId, ttlMs: options.nodeTtlMs, logger });
  return {
    adapter,
    nodes,
    notificationIds: new SharedNotificationIds(shared, options.notificationIdsPerUser, logger),
    close: async () => {
      await nodes.stop();
      await Promise.all([closeRedis(shared), closeRedis(adapter)]);
    },
  };
}
