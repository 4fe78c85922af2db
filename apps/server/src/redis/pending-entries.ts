import type { Redis } from "ioredis";
import type { PendingEntries } from "../identity/index.js";

/** Pending entries in Redis (`ovation:pending-sign-in:<key>`), expiring by themselves, shared by every node. */
export class RedisPendingEntries implements PendingEntries {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = "ovation:pending-sign-in:",
  ) {}

  async put(key: string, value: unknown, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + key, JSON.stringify(value), "PX", Math.max(1, Math.ceil(ttlMs)));
  }

  async get(key: string): Promise<unknown> {
    const text = await this.redis.get(this.prefix + key);
    return text === null ? null : (JSON.parse(text) as unknown);
  }

  async take(key: string): Promise<unknown> {
    const result = await this.redis.multi().get(this.prefix + key).del(this.prefix + key).exec();
    if (result === null) throw new Error("Redis discarded the transaction");
    const [[error, text]] = result as [[Error | null, string | null]];
    if (error) throw error;
    return text === null ? null : (JSON.parse(text) as unknown);
  }
}
