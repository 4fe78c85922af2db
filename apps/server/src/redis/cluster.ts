import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { closeRedis, openRedis } from "./connection.js";
import { NodeRegistry } from "./node-registry.js";
import { SharedAcknowledgements } from "./shared-acknowledgements.js";
import { SharedNotificationIds } from "./shared-notification-ids.js";

/** What a node shares with the others through Redis for realtime delivery. */
export interface Cluster {
  /** The socket.io adapter's connection (commands queue while Redis is away, so emits resume after). */
  readonly adapter: Redis;
  /** The live-node registry behind `/server-ids`. */
  readonly nodes: NodeRegistry;
  /** The de-duplication memory of notification ids shared between nodes. */
  readonly notificationIds: SharedNotificationIds;
  /** Which alerts each browser source acknowledged, whichever node the acknowledgement reached. */
  readonly acknowledgements: SharedAcknowledgements;
  /** Leaves the registry and closes the connections. */
  close(): Promise<void>;
}

/** Options of {@link openCluster}. */
export interface OpenClusterOptions {
  redisUrl: string;
  /** The node's fail-fast connection for counters (`SharedState.redis`), used by the registry and the ids. */
  counters: Redis;
  serverId: string;
  /** TTL of this node's registry entry in ms. */
  nodeTtlMs: number;
  /** Notification ids kept per user. */
  notificationIdsPerUser: number;
  /** How long an acknowledgement is kept (the backlog's age limit). */
  acknowledgementsMaxAgeMs: number;
  logger: Logger;
}

/**
 * Opens the realtime layer's Redis parts: a connection for the socket.io adapter (which duplicates
 * it for its blocking stream reader and its subscriber; commands wait while Redis is away), and
 * the registry and shared notification ids on the fail-fast `counters` connection (an unreachable
 * Redis must not hold requests). Fails with `OVATION_ERR_REDIS_UNREACHABLE` when Redis does not
 * answer at start. `close` leaves the registry and closes the adapter's connection only.
 */
export async function openCluster(options: OpenClusterOptions): Promise<Cluster> {
  const { logger, counters } = options;
  const adapter = await openRedis(options.redisUrl, { name: "adapter", logger });
  let nodes: NodeRegistry;
  try {
    nodes = await NodeRegistry.start(counters, { serverId: options.serverId, ttlMs: options.nodeTtlMs, logger });
  } catch (error) {
    await closeRedis(adapter);
    throw error;
  }
  return {
    adapter,
    nodes,
    notificationIds: new SharedNotificationIds(counters, options.notificationIdsPerUser, logger),
    acknowledgements: new SharedAcknowledgements(counters, options.acknowledgementsMaxAgeMs, logger),
    close: async () => {
      await nodes.stop();
      await closeRedis(adapter);
    },
  };
}
