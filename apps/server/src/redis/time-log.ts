import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import type { TimeLogFactory, TimeLogStore } from "../identity/index.js";
import { withScripts } from "./scripts.js";

// Drop what left the window, add this event, keep the newest `max`, expire with the window: atomic.
const ADD = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -1 - tonumber(ARGV[4]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** Events kept per key at most (the limits look at far fewer). */
const MAX_EVENTS = 1_000;

interface TimeLogCommands {
  ovationTimeLogAdd(key: string, now: number, windowMs: number, member: string, max: number): Promise<number>;
}

/**
 * A sliding-window time log in Redis (one sorted set per key, scored by time, expiring with the
 * window): every node's sign-in failures and mails count together. Timestamps come from the caller's
 * clock (the nodes' clocks are assumed in step, as NTP keeps them). A failing Redis rejects: the
 * identity limits built on it fail closed (see failure-backoff.ts).
 */
export class RedisTimeLog implements TimeLogStore {
  readonly #redis: Redis & TimeLogCommands;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {
    this.#redis = withScripts<TimeLogCommands>(redis, { ovationTimeLogAdd: { numberOfKeys: 1, lua: ADD } });
  }

  async recent(key: string): Promise<number[]> {
    const scores = await this.#redis.zrangebyscore(this.prefix + key, `(${this.now() - this.windowMs}`, "+inf", "WITHSCORES");
    const times: number[] = [];
    for (let i = 1; i < scores.length; i += 2) times.push(Number(scores[i]));
    return times;
  }

  async add(key: string): Promise<void> {
    const now = this.now();
    await this.#redis.ovationTimeLogAdd(this.prefix + key, now, this.windowMs, `${now}:${randomBytes(6).toString("base64url")}`, MAX_EVENTS);
  }

  async clear(key: string): Promise<void> {
    await this.#redis.del(this.prefix + key);
  }
}

/** Time logs in Redis, one key family per limit name (`ovation:limit:<name>:<key>`). */
export function redisTimeLogs(redis: Redis): TimeLogFactory {
  return (name, windowMs, now) => new RedisTimeLog(redis, `ovation:limit:${name}:`, windowMs, now);
}
