import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { withScripts } from "./scripts.js";

// Keep the lease while it is ours; take it back when Redis lost it (a restart without persistence):
// 1 = held, 0 = another node holds it.
const RENEW = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not holder then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

interface LeaseCommands {
  ovationLeaseRenew(key: string, holder: string, ttlMs: number): Promise<number>;
  ovationLeaseRelease(key: string, holder: string): Promise<number>;
}

/** Options of {@link RedisLease}. */
export interface RedisLeaseOptions {
  /** What the lease guards (`plugins`): the key is `ovation:lease:<name>`. */
  name: string;
  /** Who is asking, in logs and in the key's value (`config.serverId`). */
  node: string;
  /** How long the lease lives without a renewal (default 15 s); renewed and tried every third of it. */
  ttlMs?: number;
  /** Runs once the lease is ours (connect what only one node may run). */
  onAcquired(): Promise<void>;
  /** Runs once the lease is no longer ours: lost to another node, or stop() (disconnect it). */
  onLost(): Promise<void>;
  logger?: Logger;
}

/**
 * A lease in Redis that one node at a time holds (SET NX PX), renewed by a heartbeat and released on
 * stop; when its holder dies, the key expires and another node's next try takes it. A holder that
 * cannot renew for a whole TTL (Redis unreachable from it) gives the lease up, since another node may
 * take it once the key expires: two holders never overlap by more than one heartbeat.
 */
export class RedisLease {
  readonly #redis: Redis & LeaseCommands;
  readonly #key: string;
  readonly #holder: string;
  readonly #ttlMs: number;
  #held = false;
  #renewedAt = 0;
  #timer: NodeJS.Timeout | null = null;
  #tick: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(
    redis: Redis,
    private readonly options: RedisLeaseOptions,
  ) {
    this.#redis = withScripts<LeaseCommands>(redis, { ovationLeaseRenew: { numberOfKeys: 1, lua: RENEW }, ovationLeaseRelease: { numberOfKeys: 1, lua: RELEASE } });
    this.#key = `ovation:lease:${options.name}`;
    this.#holder = `${options.node}:${randomUUID()}`;
    this.#ttlMs = options.ttlMs ?? 15_000;
  }

  /** Whether this node holds the lease now. */
  get held(): boolean {
    return this.#held;
  }

  /** Tries at once, then every third of the TTL; resolves after the first try. */
  async start(): Promise<void> {
    this.#stopped = false;
    this.#schedule();
    await this.#tick;
  }

  /** Stops trying; when held, runs `onLost` and releases the lease so another node takes it at once. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#tick;
    if (!this.#held) return;
    await this.#lose("stopped");
    try {
      await this.#redis.ovationLeaseRelease(this.#key, this.#holder);
    } catch (err) {
      this.options.logger?.warn({ lease: this.options.name, err: (err as Error).message }, "could not release the lease; it expires on its own");
    }
  }

  #schedule(): void {
    const run = () => {
      this.#tick = this.#tick.then(() => this.#step());
    };
    run();
    this.#timer = setInterval(run, Math.max(50, Math.floor(this.#ttlMs / 3)));
    this.#timer.unref();
  }

  async #step(): Promise<void> {
    if (this.#stopped) return;
    try {
      if (this.#held) {
        const kept = await this.#redis.ovationLeaseRenew(this.#key, this.#holder, this.#ttlMs);
        if (kept === 1) this.#renewedAt = Date.now();
        else await this.#lose("taken by another node");
        return;
      }
      const taken = await this.#redis.set(this.#key, this.#holder, "PX", this.#ttlMs, "NX");
      if (taken !== "OK" || this.#stopped) return;
      this.#held = true;
      this.#renewedAt = Date.now();
      this.options.logger?.info({ lease: this.options.name, node: this.options.node }, `this node holds the ${this.options.name} lease`);
      await this.options.onAcquired();
    } catch (err) {
      if (this.#held && Date.now() - this.#renewedAt >= this.#ttlMs) await this.#lose(`not renewed for ${this.#ttlMs} ms: ${(err as Error).message}`);
    }
  }

  async #lose(why: string): Promise<void> {
    this.#held = false;
    this.options.logger?.warn({ lease: this.options.name, node: this.options.node, why }, `this node gave up the ${this.options.name} lease`);
    await this.options.onLost();
  }
}
