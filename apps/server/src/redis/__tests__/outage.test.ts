import type { Redis } from "ioredis";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOwnRedis } from "../../__tests__/services/redis.js";
import type { OwnRedis } from "../../__tests__/services/redis.js";
import { isCountersUnavailable } from "../../identity/failure-backoff.js";
import { LoginThrottle } from "../../identity/accounts/login.js";
import { closeRedis, openRedis } from "../connection.js";
import { RedisCooldownStore } from "../cooldowns.js";
import { RedisFailedAuthThrottle } from "../failed-auth.js";
import { RedisTemplateCache } from "../template-cache.js";
import { redisTimeLogs } from "../time-log.js";
import { waitFor } from "../../__tests__/socket-helpers.js";

/** A pino logger whose lines the test reads. */
function capturingLogger(): { logger: pino.Logger; lines: { level: number; msg: string }[] } {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) });
  return { logger, lines };
}


describe("when Redis goes down mid-run and comes back", () => {
  let own: OwnRedis;
  let redis: Redis;
  beforeAll(async () => {
    own = await startOwnRedis();
    redis = await openRedis(own.url, { name: "outage", failFast: true });
  }, 120_000);
  afterAll(async () => {
    await closeRedis(redis);
    await own?.close();
  });

  it("cooldowns, cache() and the bearer throttle fall back to the node's memory (logged); identity limits refuse; all shared again after", async () => {
    const { logger, lines } = capturingLogger();
    const cooldowns = new RedisCooldownStore(redis, Date.now, logger);
    const cache = new RedisTemplateCache(redis, Date.now, logger);
    const failedAuth = new RedisFailedAuthThrottle(redis, 2, 60_000, logger);
    const signIn = new LoginThrottle(Date.now, redisTimeLogs(redis));
    expect((await cooldowns.claim([{ key: "k", seconds: 60 }])).ok).toBe(true);

    await own.kill();
    // Fail open: a cooldown still holds within this node, a cached value is kept in memory.
    const during = await cooldowns.claim([{ key: "down", seconds: 60 }]);
    expect(during.ok).toBe(true);
    expect((await cooldowns.claim([{ key: "down", seconds: 60 }])).ok).toBe(false);
    await cache.set("1", "k", "v", 60);
    expect(await cache.get("1", "k")).toBe("v");
    await failedAuth.recordFailure("source:x");
    await failedAuth.recordFailure("source:x");
    expect(await failedAuth.retryAfterSeconds("source:x")).toBeGreaterThan(0);
    // Fail closed: a password is never tried uncounted.
    const refused = await signIn.waitMs("alice@example.test", "10.0.0.1").catch((error: unknown) => error);
    expect(isCountersUnavailable(refused)).toBe(true);
    const warnings = lines.filter((line) => line.level === 40).map((line) => line.msg);
    expect(warnings.some((msg) => msg.includes("command cooldowns fall back"))).toBe(true);
    expect(warnings.some((msg) => msg.includes("template cache() values fall back"))).toBe(true);
    expect(warnings.some((msg) => msg.includes("failed-authentication counters fall back"))).toBe(true);
    // One warning per outage, not one per call.
    expect(warnings.filter((msg) => msg.includes("command cooldowns fall back"))).toHaveLength(1);

    await own.start();
    await waitFor(async () => (await redis.ping().catch(() => "")) === "PONG");
    // Redis restarted empty (no persistence): the shared state starts over, and is shared again.
    expect((await cooldowns.claim([{ key: "k", seconds: 60 }])).ok).toBe(true);
    expect(await redis.exists("ovation:cooldown:k")).toBe(1);
    expect(await signIn.waitMs("alice@example.test", "10.0.0.1")).toBe(0);
    expect(lines.some((line) => line.msg.includes("command cooldowns are shared again"))).toBe(true);
  }, 60_000);
});
