import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { withScripts } from "./scripts.js";

/** Key prefix of the shared quotas: `ovation:quota:<name>`, a sorted set of grants by time. */
export const SHARED_QUOTA_PREFIX = "ovation:quota:";

// A sliding window on Redis's clock: drop grants older than the window, grant what is left (up to
// the wanted count), one member per unit. KEYS[1] the quota; ARGV wanted, per window, window ms, id.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[3]))
local room = tonumber(ARGV[2]) - redis.call('ZCARD', KEYS[1])
local n = math.min(room, tonumber(ARGV[1]))
if n <= 0 then return 0 end
for i = 1, n do redis.call('ZADD', KEYS[1], now, ARGV[4] .. ':' .. i) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return n`;

// A counter every node adds to, expiring a while after it was started. KEYS[1] the counter; ARGV units, ttl ms.
const COUNT = `
local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return n`;

// Each node's value of a figure (a hash field per node: "value:expires at"), on Redis's clock: record
// this node's, forget expired ones, return the sum. KEYS[1] the hash; ARGV node, value, ttl ms.
const SUM = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ':' .. (now + tonumber(ARGV[3])))
local all = redis.call('HGETALL', KEYS[1])
local sum = 0
for i = 1, #all, 2 do
  local value, expires = string.match(all[i + 1], '^(%d+):(%d+)$')
  if value == nil or tonumber(expires) <= now then redis.call('HDEL', KEYS[1], all[i]) else sum = sum + tonumber(value) end
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return sum`;

interface QuotaCommands {
  ovationQuotaTake(key: string, wanted: number, perWindow: number, windowMs: number, id: string): Promise<number>;
  ovationQuotaCount(key: string, units: number, ttlMs: number): Promise<number>;
  ovationQuotaSum(key: string, node: string, value: number, ttlMs: number): Promise<number>;
}

/**
 * Limits every node shares, counted in Redis: a sliding window of grants (Redis's own clock, so node
 * clocks may differ) for a limit per platform account (Twitch's JOIN rate of the bot account), and
 * counters and per-node sums for a quota per project (YouTube's daily units, divided among the
 * installation's channels), so they hold for the installation, not once per node.
 */
export class SharedQuota {
  readonly #redis: Redis & QuotaCommands;

  /** @param node this node's id (`OVATION_SERVER_ID`): its part of a {@link sum}. */
  constructor(
    redis: Redis,
    private readonly node: string,
  ) {
    this.#redis = withScripts<QuotaCommands>(redis, {
      ovationQuotaTake: { numberOfKeys: 1, lua: TAKE },
      ovationQuotaCount: { numberOfKeys: 1, lua: COUNT },
      ovationQuotaSum: { numberOfKeys: 1, lua: SUM },
    });
  }

  /** Adds `units` to the counter `name` of every node (forgotten `ttlMs` after it was started); the total after it. */
  async count(name: string, units: number, ttlMs: number): Promise<number> {
    return Number(await this.#redis.ovationQuotaCount(SHARED_QUOTA_PREFIX + name, Math.max(0, Math.floor(units)), Math.max(1, Math.ceil(ttlMs))));
  }

  /** Records this node's `value` of `name` (forgotten `ttlMs` later unless recorded again); the sum over the nodes. */
  async sum(name: string, value: number, ttlMs: number): Promise<number> {
    return Number(await this.#redis.ovationQuotaSum(SHARED_QUOTA_PREFIX + name, this.node, Math.max(0, Math.floor(value)), Math.max(1, Math.ceil(ttlMs))));
  }

  /** Takes up to `wanted` units of `name` (at most `perWindow` per `windowMs` over all nodes); how many were granted. */
  async take(name: string, wanted: number, perWindow: number, windowMs: number): Promise<number> {
    if (wanted <= 0 || perWindow <= 0) return 0;
    const granted = await this.#redis.ovationQuotaTake(SHARED_QUOTA_PREFIX + name, Math.floor(wanted), Math.floor(perWindow), Math.max(1, Math.ceil(windowMs)), randomUUID());
    return Number(granted);
  }
}
