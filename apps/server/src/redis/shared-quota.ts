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

interface QuotaCommands {
  ovationQuotaTake(key: string, wanted: number, perWindow: number, windowMs: number, id: string): Promise<number>;
}

/**
 * Rate limits every node shares, counted in Redis as a sliding window of grants (Redis's own clock,
 * so node clocks may differ): a limit per platform account (Twitch's JOIN rate of the bot account)
 * holds for the installation, not once per node.
 */
export class SharedQuota {
  readonly #redis: Redis & QuotaCommands;

  constructor(redis: Redis) {
    this.#redis = withScripts<QuotaCommands>(redis, { ovationQuotaTake: { numberOfKeys: 1, lua: TAKE } });
  }

  /** Takes up to `wanted` units of `name` (at most `perWindow` per `windowMs` over all nodes); how many were granted. */
  async take(name: string, wanted: number, perWindow: number, windowMs: number): Promise<number> {
    if (wanted <= 0 || perWindow <= 0) return 0;
    const granted = await this.#redis.ovationQuotaTake(SHARED_QUOTA_PREFIX + name, Math.floor(wanted), Math.floor(perWindow), Math.max(1, Math.ceil(windowMs)), randomUUID());
    return Number(granted);
  }
}
