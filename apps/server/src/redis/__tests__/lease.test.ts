import type { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { startOwnRedis, useRedisClients } from "../../__tests__/services/redis.js";
import { RedisLease } from "../lease.js";
import { waitFor } from "../../__tests__/socket-helpers.js";


/** A node's lease with a log of what it was told. */
function node(redis: Redis, name: string, ttlMs = 600): { lease: RedisLease; events: string[] } {
  const events: string[] = [];
  const lease = new RedisLease(redis, {
    name: "plugins",
    node: name,
    ttlMs,
    onAcquired: async () => void events.push("acquired"),
    onLost: async () => void events.push("lost"),
  });
  return { lease, events };
}

describe("RedisLease on a real redis-server", () => {
  const { connect } = useRedisClients("lease");

  it("one node holds it; it moves when the holder stops, and when the holder dies without releasing", async () => {
    const a = node(await connect(), "a");
    const bRedis = await connect();
    const b = node(bRedis, "b");
    await a.lease.start();
    await b.lease.start();
    expect(a.lease.held).toBe(true);
    expect(b.lease.held).toBe(false);
    // Renewals keep it with a (b keeps trying every third of the TTL).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(a.lease.held && !b.lease.held).toBe(true);

    await a.lease.stop();
    expect(a.events).toEqual(["acquired", "lost"]);
    await waitFor(() => b.lease.held);
    expect(b.events).toEqual(["acquired"]);

    // b dies: its connection drops and nothing releases the key; c takes over once it expires.
    const c = node(await connect(), "c");
    await c.lease.start();
    expect(c.lease.held).toBe(false);
    bRedis.disconnect();
    await waitFor(() => c.lease.held);
    expect(c.events).toEqual(["acquired"]);
    // b, unable to renew for a whole TTL, gave the lease up on its side too.
    await waitFor(() => !b.lease.held);
    expect(b.events).toEqual(["acquired", "lost"]);
    await b.lease.stop();
    await c.lease.stop();
  }, 30_000);

  it("a holder takes its lease back after a Redis restart lost the key, and no other node gets it", async () => {
    const own = await startOwnRedis();
    try {
      const redisA = await connect({ url: own.url, name: "lease-a" });
      const redisB = await connect({ url: own.url, name: "lease-b" });
      const a = node(redisA, "a", 3_000);
      await a.lease.start();
      expect(a.lease.held).toBe(true);
      await own.kill();
      await own.start();
      // a renews every second: it sets the key again (the restart lost it) before it could expire.
      await waitFor(async () => (await redisB.get("ovation:lease:plugins").catch(() => null))?.startsWith("a:") === true);
      const b = node(redisB, "b", 3_000);
      await b.lease.start();
      expect(b.lease.held).toBe(false);
      expect(a.lease.held).toBe(true);
      expect(a.events).toEqual(["acquired"]);
      await b.lease.stop();
      await a.lease.stop();
    } finally {
      await own.close();
    }
  }, 30_000);
});
