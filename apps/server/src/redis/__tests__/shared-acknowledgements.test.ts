import type { Redis } from "ioredis";
import { beforeAll, describe, expect, it } from "vitest";
import { useRedisClients } from "../../__tests__/services/redis.js";
import { ACKNOWLEDGEMENTS_PREFIX, SharedAcknowledgements } from "../shared-acknowledgements.js";

// Two "nodes" in one process, each with its own connection, sharing one real redis-server.
describe("shared acknowledgements on a real redis-server", () => {
  const clients = useRedisClients("node");
  let a: Redis;
  let b: Redis;
  beforeAll(async () => {
    a = await clients.connect({ name: "node-a" });
    b = await clients.connect({ name: "node-b" });
  });

  it("an acknowledgement recorded on one node is seen by the other, per browser source, with the key's expiry renewed", async () => {
    const maxAgeMs = 60_000;
    const onA = new SharedAcknowledgements(a, maxAgeMs);
    const onB = new SharedAcknowledgements(b, maxAgeMs);
    await onA.record(7, 1, "n-1");
    await onA.record(7, 1, "n-2");
    await onB.record(7, 2, "n-1");
    expect([...(await onB.acknowledged(7, 1, ["n-1", "n-2", "n-3"]))].sort()).toEqual(["n-1", "n-2"]);
    expect([...(await onA.acknowledged(7, 2, ["n-1", "n-2"]))]).toEqual(["n-1"]);
    expect([...(await onA.acknowledged(8, 1, ["n-1"]))]).toEqual([]);
    const ttl = await a.pttl(`${ACKNOWLEDGEMENTS_PREFIX}:7:1`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(maxAgeMs);
  });

  it("drops the ids older than the age limit and keeps the newest 2,000 per source", async () => {
    const onA = new SharedAcknowledgements(a, 10_000);
    const now = Date.now();
    await onA.record(9, 1, "old", now - 20_000);
    await onA.record(9, 1, "recent", now);
    expect([...(await onA.acknowledged(9, 1, ["old", "recent"]))]).toEqual(["recent"]);

    for (let i = 0; i < 2_005; i++) await onA.record(9, 3, `id-${i}`, now + i);
    const key = `${ACKNOWLEDGEMENTS_PREFIX}:9:3`;
    expect(await a.zcard(key)).toBe(2_000);
    const kept = await onA.acknowledged(9, 3, ["id-0", "id-4", "id-5", "id-2004"]);
    expect([...kept].sort()).toEqual(["id-2004", "id-5"]);
  });
});
