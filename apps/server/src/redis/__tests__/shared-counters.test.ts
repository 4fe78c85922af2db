import type { Redis } from "ioredis";
import { beforeAll, describe, expect, it } from "vitest";
import { useRedisClients } from "../../__tests__/services/redis.js";
import { LoginThrottle, SIGN_IN_LIMITS } from "../../identity/accounts/login.js";
import { RedisCooldownStore } from "../cooldowns.js";
import { RedisFailedAuthThrottle } from "../failed-auth.js";
import { RedisTemplateCache } from "../template-cache.js";
import { redisTimeLogs } from "../time-log.js";
import { RedisWindowCounter } from "../window-counter.js";
import { waitFor } from "../../__tests__/socket-helpers.js";


// Two "nodes" in one process: each has its own connection and its own instances, sharing one Redis.
describe("shared counters on a real redis-server, seen by two nodes", () => {
  const clients = useRedisClients("node");
  let a: Redis;
  let b: Redis;
  beforeAll(async () => {
    a = await clients.connect({ name: "node-a" });
    b = await clients.connect({ name: "node-b" });
  });

  it("failed authentications: failures on either node throttle the key on both, until the window ends", async () => {
    const onA = new RedisFailedAuthThrottle(a, 4, 400);
    const onB = new RedisFailedAuthThrottle(b, 4, 400);
    await onA.recordFailure("source:10.0.0.1");
    await onB.recordFailure("source:10.0.0.1");
    await onA.recordFailure("source:10.0.0.1");
    expect(await onB.retryAfterSeconds("source:10.0.0.1")).toBe(0);
    await onB.recordFailure("source:10.0.0.1");
    expect(await onA.retryAfterSeconds("source:10.0.0.1")).toBe(1);
    expect(await onB.retryAfterSeconds("source:10.0.0.1")).toBe(1);
    expect(await onA.retryAfterSeconds("source:10.0.0.2")).toBe(0);
    // The key expires with its window (PEXPIRE set with the first failure).
    expect(await a.pttl("ovation:auth-failures:source:10.0.0.1")).toBeGreaterThan(0);
    await waitFor(async () => (await onB.retryAfterSeconds("source:10.0.0.1")) === 0);
  });

  it("counts atomically: 200 failures from two nodes at once are 200", async () => {
    const onA = new RedisWindowCounter(a, "ovation:test-count:");
    const onB = new RedisWindowCounter(b, "ovation:test-count:");
    const counts = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? onA : onB).increment("k", 60_000)));
    expect(await onA.count("k")).toBe(200);
    // Every increment saw a count of its own: none was lost or doubled.
    expect(new Set(counts).size).toBe(200);
  });

  it("sign-in throttle: failures on one node slow the same address down on the other", async () => {
    let now = 1_000_000;
    const clock = () => now;
    const onA = new LoginThrottle(clock, redisTimeLogs(a));
    const onB = new LoginThrottle(clock, redisTimeLogs(b));
    for (let i = 0; i < SIGN_IN_LIMITS.pair.free - 1; i++) await (i % 2 === 0 ? onA : onB).fail("alice@example.test", "10.1.1.1");
    expect(await onB.waitMs("alice@example.test", "10.1.1.1")).toBe(0);
    await onA.fail("alice@example.test", "10.1.1.1");
    expect(await onB.waitMs("alice@example.test", "10.1.1.1")).toBe(1_000);
    await onB.fail("alice@example.test", "10.1.1.1");
    expect(await onA.waitMs("alice@example.test", "10.1.1.1")).toBe(2_000);
    // Another source on the same address is not slowed by the pair's failures (6 < 20 for the address).
    expect(await onB.waitMs("alice@example.test", "10.9.9.9")).toBe(0);
    // A success on node B forgets the pair's failures for node A too.
    await onB.succeed("alice@example.test", "10.1.1.1");
    expect(await onA.waitMs("alice@example.test", "10.1.1.1")).toBe(0);
    // Events leave the sliding window with time.
    for (let i = 0; i < 6; i++) await onA.fail("bob@example.test", "10.2.2.2");
    now += SIGN_IN_LIMITS.pair.windowMs + 1;
    expect(await onB.waitMs("bob@example.test", "10.2.2.2")).toBe(0);
  });

  it("cooldowns: of many claims racing from two nodes for a free cooldown, exactly one wins", async () => {
    const onA = new RedisCooldownStore(a);
    const onB = new RedisCooldownStore(b);
    const entries = [{ key: "race\u0000hello", seconds: 30 }, { key: "race\u0000hello\u0000viewer", seconds: 0 }];
    const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? onA : onB).claim(entries)));
    expect(claims.filter((claim) => claim.ok)).toHaveLength(1);
    const refused = claims.find((claim) => !claim.ok);
    expect(refused).toMatchObject({ ok: false, index: 0 });
    expect(await onB.remainingSeconds("race\u0000hello", 30)).toBeGreaterThan(28);
  });

  it("cooldowns: the user cooldown is reported by index, release gives a claim back, moderators force", async () => {
    let now = 5_000_000;
    const onA = new RedisCooldownStore(a, () => now);
    const onB = new RedisCooldownStore(b, () => now);
    const entries = [{ key: "c\u0000cmd", seconds: 5 }, { key: "c\u0000cmd\u0000u1", seconds: 60 }];
    const first = await onA.claim(entries);
    expect(first.ok).toBe(true);
    now += 5_000;
    expect(await onB.claim(entries)).toEqual({ ok: false, index: 1, remainingSeconds: 55 });
    const other = await onB.claim([{ key: "c\u0000cmd", seconds: 5 }, { key: "c\u0000cmd\u0000u2", seconds: 60 }]);
    expect(other.ok).toBe(true);
    if (other.ok) await other.release();
    expect(await onA.remainingSeconds("c\u0000cmd\u0000u2", 60)).toBe(0);
    expect((await onA.claim(entries, { force: true })).ok).toBe(true);
    expect(await onB.remainingSeconds("c\u0000cmd\u0000u1", 60)).toBe(60);
    // The key lives as long as its cooldown.
    const ttl = await a.pttl("ovation:cooldown:c\u0000cmd\u0000u1");
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("template cache(): written on one node, read on the other; expires; bounded per channel", async () => {
    const onA = new RedisTemplateCache(a);
    const onB = new RedisTemplateCache(b);
    await onA.set("7", "greeting", { text: "hi", n: [1, 2] }, 1);
    expect(await onB.get("7", "greeting")).toEqual({ text: "hi", n: [1, 2] });
    expect(await onB.get("8", "greeting")).toBeNull();
    await waitFor(async () => (await onB.get("7", "greeting")) === null);

    const pipeline = Array.from({ length: 1_001 }, (_, i) => (i % 2 === 0 ? onA : onB).set("9", `k${i}`, i, 3_600));
    for (const write of pipeline) await write;
    expect(await onB.get("9", "k0")).toBeNull();
    expect(await onA.get("9", "k1")).toBe(1);
    expect(await onA.get("9", "k1000")).toBe(1_000);
    expect(await a.zcard("ovation:cache-index:9")).toBe(1_000);
  });
});
