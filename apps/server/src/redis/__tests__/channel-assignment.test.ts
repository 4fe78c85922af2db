import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOwnRedis } from "../../__tests__/services/redis.js";
import type { OwnRedis } from "../../__tests__/services/redis.js";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { ChannelAssignment, rendezvousOwner } from "../channel-assignment.js";
import { closeRedis, openRedis } from "../connection.js";
import { NodeRegistry } from "../node-registry.js";

// Several nodes' channel assignments on one real redis-server, each node with its own connections,
// registry and lease holder. A shared referee records which node serves which channel and fails the
// test the moment two serve one channel at once (acquire while another still serves it).

const TTL_MS = 1_500;
const NODE_TTL_MS = 1_500;
const CHANNELS = 300;

interface TestNode {
  id: string;
  redis: Redis;
  registry: NodeRegistry;
  assignment: ChannelAssignment;
  serving: Set<string>;
}

describe("ChannelAssignment: rendezvous hashing over the live nodes plus a lease per channel", () => {
  let redis: OwnRedis;
  const nodes: TestNode[] = [];
  const connections: Redis[] = [];
  const violations: string[] = [];
  let wanted: string[] = Array.from({ length: CHANNELS }, (_, i) => `twitch:${i + 1}`);

  const servers = (key: string) => nodes.filter((n) => n.serving.has(key)).map((n) => n.id);
  const everyChannelOnce = () => wanted.every((key) => servers(key).length === 1);
  const share = (node: TestNode) => node.serving.size;

  async function startNode(id: string): Promise<TestNode> {
    const conn = await openRedis(redis.url, { name: id, failFast: true });
    connections.push(conn);
    const registry = await NodeRegistry.start(conn, { serverId: id, ttlMs: NODE_TTL_MS });
    const serving = new Set<string>();
    const assignment = new ChannelAssignment(conn, {
      node: id,
      ttlMs: TTL_MS,
      liveNodes: () => registry.liveIds(),
      wanted: () => wanted,
      acquire: async (key) => {
        const others = nodes.filter((n) => n.id !== id && n.serving.has(key)).map((n) => n.id);
        if (others.length > 0) violations.push(`${id} took ${key} while ${others.join(", ")} served it`);
        serving.add(key);
      },
      release: async (key) => {
        serving.delete(key);
      },
    });
    const node = { id, redis: conn, registry, assignment, serving };
    nodes.push(node);
    await assignment.start();
    return node;
  }

  /** A crash: the node's connection is cut (no release, no registry removal); its leases expire. */
  function crash(node: TestNode): void {
    node.redis.disconnect();
  }

  beforeAll(async () => {
    redis = await startOwnRedis();
  }, 60_000);

  afterAll(async () => {
    for (const node of nodes) await node.assignment.stop().catch(() => undefined);
    for (const conn of connections) await closeRedis(conn);
    await redis?.close();
  });

  it("rendezvous hashing: the same owner from the same list, and a joining node takes only keys it wins", () => {
    const keys = Array.from({ length: 3_000 }, (_, i) => `k:${i}`);
    const three = ["a", "b", "c"];
    const owners = keys.map((k) => rendezvousOwner(k, three));
    expect(keys.map((k) => rendezvousOwner(k, [...three].reverse()))).toEqual(owners);
    for (const node of three) expect(owners.filter((o) => o === node).length).toBeGreaterThan(800);
    const four = keys.map((k) => rendezvousOwner(k, [...three, "d"]));
    // Every key that moved went to the new node; about a quarter moved.
    const moved = keys.filter((_, i) => four[i] !== owners[i]);
    expect(moved.every((k) => rendezvousOwner(k, [...three, "d"]) === "d")).toBe(true);
    expect(moved.length).toBeGreaterThan(500);
    expect(moved.length).toBeLessThan(1_000);
    expect(rendezvousOwner("x", [])).toBeNull();
  });

  it(`three nodes serve ${CHANNELS} channels, each exactly once, each node a share`, { timeout: 30_000 }, async () => {
    await startNode("node-a");
    await startNode("node-b");
    await startNode("node-c");
    await waitFor(() => everyChannelOnce() && nodes.every((n) => share(n) > 50), 15_000, "every channel served once");
    expect(nodes.reduce((sum, n) => sum + share(n), 0)).toBe(CHANNELS);
    expect(violations).toEqual([]);
  });

  it("a node joining takes its share from the others, never serving a channel another still serves", { timeout: 30_000 }, async () => {
    const d = await startNode("node-d");
    await waitFor(() => everyChannelOnce() && share(d) > 30, 15_000, "node-d takes a share");
    expect(nodes.reduce((sum, n) => sum + share(n), 0)).toBe(CHANNELS);
    expect(violations).toEqual([]);
  });

  it("a channel unlinked is released; a new one is taken by its owner", { timeout: 20_000 }, async () => {
    const gone = wanted[0]!;
    wanted = [...wanted.slice(1), "kick:9001"];
    for (const n of nodes) n.assignment.poke();
    await waitFor(() => servers(gone).length === 0 && servers("kick:9001").length === 1, 10_000, "released and taken");
    expect(violations).toEqual([]);
  });

  it("a crashed node's channels are served by the others within the lease lifetime plus a few seconds", { timeout: 30_000 }, async () => {
    const b = nodes.find((n) => n.id === "node-b")!;
    const orphans = [...b.serving];
    expect(orphans.length).toBeGreaterThan(0);
    const crashedAt = Date.now();
    crash(b);
    // The cut-off node stops serving on its own before its leases can expire (no overlap).
    await waitFor(() => b.serving.size === 0, TTL_MS + 1_000, "the cut-off node gives its channels up");
    const survivors = nodes.filter((n) => n !== b);
    await waitFor(() => orphans.every((key) => survivors.filter((n) => n.serving.has(key)).length === 1), TTL_MS + NODE_TTL_MS + 5_000, "orphans taken");
    expect(Date.now() - crashedAt).toBeLessThan(TTL_MS + 5_000);
    nodes.splice(nodes.indexOf(b), 1);
    await b.assignment.stop();
    await waitFor(everyChannelOnce, 5_000, "every channel once after the crash");
    expect(violations).toEqual([]);
  });

  it("after a Redis restart (leases and registry lost) the assignment recovers, still once per channel", { timeout: 60_000 }, async () => {
    await redis.kill();
    await new Promise((r) => setTimeout(r, 500));
    await redis.start();
    await waitFor(() => everyChannelOnce() && nodes.every((n) => share(n) > 30), 30_000, "every channel served once after the restart");
    expect(nodes.reduce((sum, n) => sum + share(n), 0)).toBe(wanted.length);
    expect(violations).toEqual([]);
  });

  it("a clean stop hands its channels over at once", { timeout: 20_000 }, async () => {
    const c = nodes.find((n) => n.id === "node-c")!;
    const handed = [...c.serving];
    await c.assignment.stop();
    await c.registry.stop();
    nodes.splice(nodes.indexOf(c), 1);
    expect(c.serving.size).toBe(0);
    await waitFor(() => handed.every((key) => servers(key).length === 1), NODE_TTL_MS + 3_000, "handed over");
    expect(violations).toEqual([]);
  });
});
