import type { CooldownStore, TemplateCacheStore } from "@ovation/core/commands";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { FailedAuthThrottle } from "../auth/failed-auth-throttle.js";
import type { FailedAuthCounter } from "../auth/failed-auth-throttle.js";
import type { ServerConfig } from "../config.js";
import type { AttemptCounter, PendingEntries, TimeLogFactory } from "../identity/index.js";
import { closeRedis, openRedis } from "./connection.js";
import { RedisCooldownStore } from "./cooldowns.js";
import { RedisFailedAuthThrottle } from "./failed-auth.js";
import { RedisLease } from "./lease.js";
import { RedisPendingEntries } from "./pending-entries.js";
import type { RedisLeaseOptions } from "./lease.js";
import { RedisTemplateCache } from "./template-cache.js";
import { redisTimeLogs } from "./time-log.js";
import { RedisWindowCounter } from "./window-counter.js";

/**
 * What the nodes of one installation share: with `OVATION_REDIS_URL`, every structure here lives in
 * Redis; without it, each is this process's memory (an `undefined` store means "the component's own
 * in-memory default"), exactly as a single node always ran. docs/deployment.md ("Redis") lists them.
 */
export interface SharedState {
  /** The Redis connection of the counters (null without `OVATION_REDIS_URL`); the HTTP rate limit uses it too. */
  readonly redis: Redis | null;
  /** Failed bearer checks per source and per credential (HTTP and socket handshakes). */
  readonly failedAuth: FailedAuthCounter;
  /** Command cooldowns. */
  readonly cooldowns: CooldownStore | undefined;
  /** The template `cache()` values. */
  readonly templateCache: TemplateCacheStore | undefined;
  /** The identity module's sign-in, email-change and password-reset limits. */
  readonly timeLogs: TimeLogFactory | undefined;
  /** Wrong tries of verification (EAT) codes. */
  readonly eatAttempts: AttemptCounter | undefined;
  /** Pending platform sign-ins and links (undefined: one file per entry in the data directory). */
  readonly pendingSignIns: PendingEntries | undefined;
  /** A lease only one node holds at a time (null without Redis: this node is the only one). */
  lease(options: Omit<RedisLeaseOptions, "node" | "logger">): RedisLease | null;
  /** Closes the Redis connection (after everything using it stopped). */
  close(): Promise<void>;
}

/** Failures per minute before a source or credential is throttled, for a rate limit of `perMinute`. */
export function failedAuthLimit(perMinute: number): number {
  return Math.max(20, Math.floor(perMinute / 10));
}

/**
 * Opens what the nodes share: in memory without `config.redisUrl`; else one Redis connection (fails
 * the start with `OVATION_ERR_REDIS_UNREACHABLE` when Redis does not answer) that fails commands at
 * once while Redis is down, so the request path falls back or refuses instead of waiting.
 */
export async function openSharedState(config: ServerConfig, logger: Logger): Promise<SharedState> {
  const maxFailures = failedAuthLimit(config.rateLimitPerMinute);
  if (config.redisUrl === null) {
    return {
      redis: null,
      failedAuth: new FailedAuthThrottle(maxFailures),
      cooldowns: undefined,
      templateCache: undefined,
      timeLogs: undefined,
      eatAttempts: undefined,
      pendingSignIns: undefined,
      lease: () => null,
      close: async () => undefined,
    };
  }
  const redis = await openRedis(config.redisUrl, { name: "shared", logger, failFast: true });
  return {
    redis,
    failedAuth: new RedisFailedAuthThrottle(redis, maxFailures, 60_000, logger),
    cooldowns: new RedisCooldownStore(redis, Date.now, logger),
    templateCache: new RedisTemplateCache(redis, Date.now, logger),
    timeLogs: redisTimeLogs(redis),
    eatAttempts: new RedisWindowCounter(redis, "ovation:eat-attempts:"),
    pendingSignIns: new RedisPendingEntries(redis),
    lease: (options) => new RedisLease(redis, { ...options, node: config.serverId, logger }),
    close: () => closeRedis(redis),
  };
}
