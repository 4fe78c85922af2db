import type { Redis } from "ioredis";

/** A Lua script to define as a command; without `numberOfKeys` the caller passes the key count first. */
export interface RedisScript {
  lua: string;
  numberOfKeys?: number;
}

/**
 * Defines `scripts` as commands of `redis` (once per connection; ioredis runs them by EVALSHA and
 * sends the script again after a restart emptied Redis's script cache) and returns the connection
 * typed with them.
 */
export function withScripts<Commands>(redis: Redis, scripts: Record<keyof Commands & string, RedisScript>): Redis & Commands {
  for (const [name, script] of Object.entries<RedisScript>(scripts)) {
    if (!(name in redis)) redis.defineCommand(name, script.numberOfKeys === undefined ? { lua: script.lua } : { lua: script.lua, numberOfKeys: script.numberOfKeys });
  }
  return redis as Redis & Commands;
}
