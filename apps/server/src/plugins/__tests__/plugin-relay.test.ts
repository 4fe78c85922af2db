import type { Redis } from "ioredis";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDataDir } from "../../__tests__/helpers.js";
import { startOwnRedis } from "../../__tests__/services/redis.js";
import type { OwnRedis } from "../../__tests__/services/redis.js";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { CHANNEL_LEASE_PREFIX } from "../../redis/channel-assignment.js";
import { closeRedis, openRedis } from "../../redis/connection.js";
import { NodeRelay } from "../../redis/node-relay.js";
import type { OvationServices } from "../../services.js";
import { createRepositories } from "../../store/repositories.js";
import { Store } from "../../store/store.js";
import { channelKey } from "../channel-sync.js";
import { pluginRelay } from "../plugin-services.js";

// The relay of a plugin between nodes, on a real redis-server of the test's own (restarted in one
// case) and a real store: each node has its own connections and its own NodeRelay, the channel's
// lease is the key the assignment writes. A message for a channel between nodes waits for its
// node instead of being dropped, and reaches exactly one node.

const WAIT_MS = 3_000;

interface RelayNode {
  id: string;
  redis: Redis;
  relay: NodeRelay;
  /** Platform user ids this node serves (its receiver takes their messages). */
  serves: Set<string>;
  received: Array<{ user: string; message: unknown }>;
  send(user: string, message: unknown): Promise<boolean>;
}

describe("plugin relay: a message for a channel between nodes waits for its node", () => {
  let redis: OwnRedis;
  let store: Store;
  const data = tempDataDir();
  const nodes: RelayNode[] = [];
  const connectionIds = new Map<string, number>();
  const logger = pino({ level: "silent" });

  const lease = (user: string) => CHANNEL_LEASE_PREFIX + channelKey("kick", connectionIds.get(user)!);
  /** Writes the channel's lease for `node` as the assignment does (`<node>:<instance>`). */
  const hold = (user: string, node: RelayNode) => node.redis.set(lease(user), `${node.id}:instance`, "PX", 60_000);
  const everywhere = () => nodes.flatMap((n) => n.received.map((r) => `${n.id}:${String(r.message)}`));

  async function startNode(id: string): Promise<RelayNode> {
    const conn = await openRedis(redis.url, { name: id, failFast: true, logger });
    const relay = await NodeRelay.open(conn, id, logger);
    const repos = createRepositories(store);
    // The parts of the services the relay reads: this node's Redis connection and id, the store's links, a logger.
    const services = { shared: { redis: conn }, config: { serverId: id }, repos, logger } as unknown as OvationServices;
    const plugin = pluginRelay(services, relay, "kick", () => ({ name: "kick", platform: "kick" }), WAIT_MS);
    const node: RelayNode = { id, redis: conn, relay, serves: new Set(), received: [], send: (user, message) => plugin.send(user, message) };
    plugin.receive((user, message) => {
      if (!node.serves.has(user)) return false;
      node.received.push({ user, message });
      return true;
    });
    nodes.push(node);
    return node;
  }

  beforeAll(async () => {
    redis = await startOwnRedis();
    store = await Store.open(data.dir);
    const repos = createRepositories(store);
    for (const [i, user] of ["700001", "700002", "700003", "700004"].entries()) {
      const owner = repos.users.create({ name: `relay${i}`, email: null });
      connectionIds.set(user, repos.connections.upsert({ user_id: owner.id, platform: "kick", platform_user_id: user, username: `relay${i}` }).id);
    }
    await startNode("node-a");
    await startNode("node-b");
  }, 60_000);

  afterAll(async () => {
    for (const node of nodes) {
      await node.relay.close();
      await closeRedis(node.redis);
    }
    await store?.close();
    await redis?.close();
    data.remove();
  });

  it("a message for a channel whose lease is not taken yet reaches the node that takes it", async () => {
    const [a, b] = nodes as [RelayNode, RelayNode];
    const sent = a.send("700001", "m1");
    await new Promise((r) => setTimeout(r, 300));
    b.serves.add("700001");
    await hold("700001", b);
    expect(await sent).toBe(true);
    // Published to node-b's relay connection: its receiver gets it a moment later.
    await waitFor(() => b.received.length > 0, 5_000, "the message at node-b");
    expect(b.received).toEqual([{ user: "700001", message: "m1" }]);
    expect(a.received).toEqual([]);
  });

  it("a node that gave the channel up hands the message on to the node that took it, once", async () => {
    const [a, b] = nodes as [RelayNode, RelayNode];
    // b holds the lease but no longer serves the channel (it stops serving before deleting the lease).
    await hold("700002", b);
    expect(await a.send("700002", "m2")).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(everywhere().filter((m) => m.endsWith(":m2"))).toEqual([]);
    // The hand-over completes: a takes the lease and serves the channel.
    a.serves.add("700002");
    await hold("700002", a);
    await waitFor(() => a.received.length === 1, 5_000, "the message at node-a");
    await new Promise((r) => setTimeout(r, 300));
    expect(everywhere().filter((m) => m.endsWith(":m2"))).toEqual(["node-a:m2"]);
  });

  it("a message for a node whose relay connection is not subscribed (yet) reaches it once it is", async () => {
    const [a] = nodes as [RelayNode, RelayNode];
    // node-c holds the lease (written before its relay connection subscribed, as after a Redis
    // restart or a reconnect): a bare publish to it reaches nobody.
    await a.redis.set(lease("700003"), "node-c:instance", "PX", 60_000);
    expect(await a.redis.publish("ovation:relay:node-c", JSON.stringify({ topic: "kick", payload: null }))).toBe(0);
    const sent = a.send("700003", "m3");
    await new Promise((r) => setTimeout(r, 300));
    const c = await startNode("node-c");
    c.serves.add("700003");
    expect(await sent).toBe(true);
    await waitFor(() => c.received.length > 0, 5_000, "the message at node-c");
    await new Promise((r) => setTimeout(r, 300));
    expect(everywhere().filter((m) => m.endsWith(":m3"))).toEqual(["node-c:m3"]);
  });

  it("after a Redis restart the relay goes on: a message sent as soon as Redis answers reaches the serving node once", async () => {
    const [a, b] = nodes as [RelayNode, RelayNode];
    b.serves.add("700001");
    await redis.kill();
    await new Promise((r) => setTimeout(r, 1_000));
    await redis.start();
    // Both nodes' connections (each reconnects on its own; the lease below is written on node-b's).
    for (const node of [a, b]) await waitFor(async () => (await node.redis.ping().catch(() => null)) === "PONG", 10_000, `${node.id}'s connection back`);
    // The holder writes its lease back at its next renewal.
    await hold("700001", b);
    const before = b.received.length;
    expect(await a.send("700001", "m6")).toBe(true);
    await waitFor(() => b.received.length > before, 5_000, "the message at node-b");
    await new Promise((r) => setTimeout(r, 300));
    expect(b.received.slice(before)).toEqual([{ user: "700001", message: "m6" }]);
    expect(everywhere().filter((m) => m.endsWith(":m6"))).toEqual(["node-b:m6"]);
  }, 30_000);

  it("no node serves the channel within the wait: false, delivered nowhere", async () => {
    const [a] = nodes as [RelayNode, RelayNode];
    const before = everywhere().length;
    expect(await a.send("700004", "m4")).toBe(false);
    expect(everywhere().length).toBe(before);
    // A platform user with no linked channel is refused at once.
    expect(await a.send("999999", "m5")).toBe(false);
  }, 15_000);
});
