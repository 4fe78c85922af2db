import type { Redis } from "ioredis";

/** Key prefix of the nodes' status: `ovation:node-status:<node id>`, JSON, expiring with the node. */
export const NODE_STATUS_PREFIX = "ovation:node-status:";

/** One channel a node serves, as its status lists it. */
export interface NodeChannelStatus {
  /** The registered plugin name. */
  plugin: string;
  connection_id: number;
  username: string;
  state: string;
  detail: string | null;
  /** When the state last changed (ms since epoch). */
  since: number;
}

/** What one node reports of the channels it serves (written after every assignment step). */
export interface NodeStatus {
  node: string;
  /** When it was written (ms since epoch, the node's clock). */
  at: number;
  /** The live nodes the node saw. */
  live_nodes: string[];
  /** Channels whose lease it holds. */
  held: number;
  /** Channels the hash gives it that another node's lease still holds (a move under way). */
  waiting: number;
  /** How late its last assignment step ran, in ms (event-loop or Redis lag). */
  lag_ms: number;
  /** Its last Redis failure, or null. */
  last_error: string | null;
  channels: NodeChannelStatus[];
}

/** Writes this node's status, kept for `ttlMs` (a dead node's status disappears with it). */
export async function writeNodeStatus(redis: Redis, status: NodeStatus, ttlMs: number): Promise<void> {
  await redis.set(NODE_STATUS_PREFIX + status.node, JSON.stringify(status), "PX", Math.max(1000, Math.ceil(ttlMs)));
}

/** The status of each of `nodes` that has one, in that order. */
export async function readNodeStatuses(redis: Redis, nodes: readonly string[]): Promise<NodeStatus[]> {
  if (nodes.length === 0) return [];
  const values = await redis.mget(nodes.map((id) => NODE_STATUS_PREFIX + id));
  const found: NodeStatus[] = [];
  for (const value of values) {
    if (value === null) continue;
    try {
      found.push(JSON.parse(value) as NodeStatus);
    } catch {
      // a value this version does not read: left out
    }
  }
  return found;
}
