import type { Redis } from "ioredis";
import { withScripts } from "./scripts.js";

// INCR and, on the first hit of a window, PEXPIRE: one script, so the count and its expiry are
// atomic across nodes (a key never lives on without a TTL).
const INCREMENT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

interface CounterCommands {
  ovationWindowIncrement(key: string, ttlMs: number): Promise<number>;
}

/**
 * Counters with a fixed window in Redis: the first hit starts the window (`ttlMs`), the key expires at
 * its end. Every node counting the same key sees one count. Calls reject when Redis fails; callers
 * decide whether that fails open or closed.
 */
export class RedisWindowCounter {
  readonly #redis: Redis & CounterCommands;

  constructor(
    redis: Redis,
    /** Key prefix of this family of counters (`ovation:auth-failures:`...). */
    private readonly prefix: string,
  ) {
    this.#redis = withScripts<CounterCommands>(redis, { ovationWindowIncrement: { numberOfKeys: 1, lua: INCREMENT } });
  }

  /** Adds one to `key` and returns the new count. */
  async increment(key: string, ttlMs: number): Promise<number> {
    return Number(await this.#redis.ovationWindowIncrement(this.prefix + key, Math.max(1, Math.ceil(ttlMs))));
  }

  /** The count of `key` (0 when unknown or expired). */
  async count(key: string): Promise<number> {
    return Number((await this.#redis.get(this.prefix + key)) ?? 0);
  }

  /** The count and the milliseconds left of its window. */
  async read(key: string): Promise<{ count: number; ttlMs: number }> {
    const result = await this.#redis.multi().get(this.prefix + key).pttl(this.prefix + key).exec();
    if (result === null) throw new Error("Redis discarded the transaction");
    const [[countError, count], [ttlError, ttl]] = result as [[Error | null, string | null], [Error | null, number]];
    if (countError) throw countError;
    if (ttlError) throw ttlError;
    return { count: Number(count ?? 0), ttlMs: Math.max(0, Number(ttl)) };
  }
}
