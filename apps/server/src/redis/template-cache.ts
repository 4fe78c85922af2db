import { TEMPLATE_CACHE_LIMITS, TemplateCache } from "@ovation/core/commands";
import type { TemplateCacheStore } from "@ovation/core/commands";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { FailOpen } from "./outage.js";
import { withScripts } from "./scripts.js";

// Store the value with its lifetime, note it in the channel's index by write time, and drop the
// oldest written beyond the per-channel bound: one script, so the bound holds across nodes.
const SET = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
if over > 0 then
  local oldest = redis.call('ZPOPMIN', KEYS[2], over)
  for i = 1, #oldest, 2 do redis.call('DEL', ARGV[6] .. oldest[i]) end
end
redis.call('PEXPIRE', KEYS[2], ARGV[7])
return 1`;

interface CacheCommands {
  ovationCacheSet(...args: (string | number)[]): Promise<number>;
}

/**
 * The template `cache()` store shared by every node (Redis): a value cached by a command on one node
 * is read on all of them, with the same lifetime and the same bound per channel (the oldest written
 * goes first) as the in-memory {@link TemplateCache}. Values are stored as JSON (the template
 * functions only let JSON-safe values in). While Redis fails, each node uses its own memory (logged).
 */
export class RedisTemplateCache implements TemplateCacheStore {
  readonly #redis: Redis & CacheCommands;
  readonly #local: TemplateCache;
  readonly #outage: FailOpen;

  constructor(
    redis: Redis,
    private readonly now: () => number = Date.now,
    logger?: Logger,
  ) {
    this.#redis = withScripts<CacheCommands>(redis, { ovationCacheSet: { numberOfKeys: 2, lua: SET } });
    this.#local = new TemplateCache({ now });
    this.#outage = new FailOpen("template cache() values", logger);
  }

  get(channel: string, key: string): Promise<unknown> {
    return this.#outage.run(
      async () => {
        const stored = await this.#redis.get(entryKey(channel, key));
        return stored === null ? null : (JSON.parse(stored) as unknown);
      },
      () => this.#local.get(channel, key),
    );
  }

  set(channel: string, key: string, value: unknown, ttlSeconds: number): Promise<void> {
    return this.#outage.run(
      async () => {
        await this.#redis.ovationCacheSet(
          entryKey(channel, key),
          indexKey(channel),
          JSON.stringify(value),
          ttlSeconds * 1000,
          this.now(),
          key,
          TEMPLATE_CACHE_LIMITS.entriesPerChannel,
          entryKey(channel, ""),
          TEMPLATE_CACHE_LIMITS.maxTtlSeconds * 1000,
        );
      },
      () => this.#local.set(channel, key, value, ttlSeconds),
    );
  }
}

function entryKey(channel: string, key: string): string {
  return `ovation:cache:${channel.length}:${channel}:${key}`;
}

function indexKey(channel: string): string {
  return `ovation:cache-index:${channel}`;
}
