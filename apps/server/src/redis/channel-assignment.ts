import { createHash, randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { withScripts } from "./scripts.js";

/** Key prefix of the per-channel leases: `ovation:channel:<key>` holds `<node>:<instance>`. */
export const CHANNEL_LEASE_PREFIX = "ovation:channel:";

/** Keys per script call or pipeline (keeps one Redis call short with 10,000 channels). */
const BATCH = 500;

// Renews every lease of KEYS still ours; re-takes one Redis lost (a restart without persistence).
// One answer per key: 1 = held, 0 = another node holds it.
const RENEW_MANY = `
local kept = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2]) kept[i] = 1
  elseif not holder then redis.call('SET', key, ARGV[1], 'PX', ARGV[2]) kept[i] = 1
  else kept[i] = 0 end
end
return kept`;

const RELEASE_MANY = `
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 1`;

interface AssignmentCommands {
  ovationChannelRenew(count: number, ...keysAndArgs: (string | number)[]): Promise<number[]>;
  ovationChannelRelease(count: number, ...keysAndArgs: string[]): Promise<number>;
}

/**
 * The node a key belongs to by rendezvous (highest random weight) hashing: every node scores
 * `sha1(node + key)` and the highest wins. Every node computes the same owner from the same list;
 * when a node joins or leaves, only the keys it wins or held move (about 1/n of them).
 */
export function rendezvousOwner(key: string, nodes: readonly string[]): string | null {
  let best: string | null = null;
  let bestScore = "";
  for (const node of nodes) {
    const score = createHash("sha1").update(node).update("\u0000").update(key).digest("hex");
    if (best === null || score > bestScore) {
      best = node;
      bestScore = score;
    }
  }
  return best;
}

/** The period of an assignment step for a lease lifetime: a third of it. */
export function channelAssignmentPeriodMs(ttlMs: number): number {
  return Math.max(50, Math.floor(ttlMs / 3));
}

/** Options of {@link ChannelAssignment}. */
export interface ChannelAssignmentOptions {
  /** This node's id (`OVATION_SERVER_ID`). */
  node: string;
  /** Lifetime of a channel lease without renewal; renewed (and the assignment redone) every third of it. */
  ttlMs: number;
  /** The ids of the live nodes (the node registry; always including this node). */
  liveNodes(): Promise<string[]>;
  /** The keys of every channel the installation serves now (on all nodes). */
  wanted(): readonly string[];
  /** Serves a channel whose lease this node just took. */
  acquire(key: string): Promise<void>;
  /** Stops serving a channel; the lease is released only after it resolves. */
  release(key: string): Promise<void>;
  /** Runs after every step (success or failure): publish this node's status. Its failure is ignored. */
  stepped?(view: AssignmentView): Promise<void>;
  logger?: Logger;
}

/** What one node sees of the assignment, for status pages. */
export interface AssignmentView {
  node: string;
  live_nodes: string[];
  /** Channels this node holds the lease of (and serves). */
  held: number;
  /** Channels this node owns by the hash but cannot take yet (another node's lease still lives). */
  waiting: number;
  /** When the leases were last renewed (ms since epoch); 0 before the first renewal. */
  renewed_at: number;
  /** How late the last step ran against its schedule, in ms (event-loop or Redis lag). */
  lag_ms: number;
  /** The last Redis failure of a step, or null. */
  last_error: string | null;
}

/**
 * Spreads channels over the live nodes so that each is served by exactly one: the owner of a key is
 * its rendezvous winner among the live nodes, and a node serves a channel only while it holds the
 * channel's lease in Redis (`SET NX PX`, renewed every third of its lifetime). On a rebalance (a node
 * joined or left) the old owner stops serving first and then deletes the lease; the new owner takes
 * it on its next step, so two nodes never serve a channel at once. A dead node's leases expire and
 * its channels are taken within the lease lifetime plus one step. A node that cannot renew for a
 * whole lifetime (Redis unreachable from it) stops serving everything, since another node may take
 * the leases once they expire. After a Redis restart the holders write their leases again.
 */
export class ChannelAssignment {
  readonly #redis: Redis & AssignmentCommands;
  readonly #options: ChannelAssignmentOptions;
  readonly #holder: string;
  readonly #held = new Set<string>();
  #waiting = 0;
  #live: string[] = [];
  #renewedAt = 0;
  #lagMs = 0;
  #lastError: string | null = null;
  #timer: NodeJS.Timeout | null = null;
  #soon: NodeJS.Timeout | null = null;
  #tick: Promise<void> = Promise.resolve();
  #stopped = true;
  /** Serves still starting, by key: a release waits for them, so a channel never stays served without its lease. */
  readonly #starting = new Map<string, Promise<void>>();
  /** Redis's run id: when it changes Redis restarted and lost the leases, so nothing is taken for a lifetime. */
  #runId: string | null = null;
  #noTakeUntil = 0;

  constructor(redis: Redis, options: ChannelAssignmentOptions) {
    this.#redis = withScripts<AssignmentCommands>(redis, { ovationChannelRenew: { lua: RENEW_MANY }, ovationChannelRelease: { lua: RELEASE_MANY } });
    this.#options = options;
    this.#holder = `${options.node}:${randomUUID()}`;
  }

  /** The period of a step: a third of the lease lifetime. */
  get periodMs(): number {
    return channelAssignmentPeriodMs(this.#options.ttlMs);
  }

  /** Whether this node holds the lease of `key` (and so serves it). */
  holds(key: string): boolean {
    return this.#held.has(key);
  }

  /** The keys this node holds. */
  held(): string[] {
    return [...this.#held];
  }

  view(): AssignmentView {
    return { node: this.#options.node, live_nodes: [...this.#live], held: this.#held.size, waiting: this.#waiting, renewed_at: this.#renewedAt, lag_ms: this.#lagMs, last_error: this.#lastError };
  }

  /** Runs a first step (awaited), then one every {@link periodMs}. */
  async start(): Promise<void> {
    if (!this.#stopped) return;
    this.#stopped = false;
    let due = Date.now();
    const run = () => {
      this.#lagMs = Math.max(0, Date.now() - due);
      due = Date.now() + this.periodMs;
      this.#enqueue();
    };
    run();
    this.#timer = setInterval(run, this.periodMs);
    this.#timer.unref();
    await this.#tick;
  }

  /** Runs a step soon (a channel was linked or switched on): coalesces calls within 50 ms. */
  poke(): void {
    if (this.#stopped || this.#soon) return;
    this.#soon = setTimeout(() => {
      this.#soon = null;
      this.#enqueue();
    }, 50);
    this.#soon.unref();
  }

  /** Stops serving `key` and releases its lease at once (the channel was unlinked or switched off). */
  async drop(key: string): Promise<void> {
    await this.#serial(async () => {
      if (!this.#held.has(key)) return;
      await this.#releaseKeys([key]);
    });
  }

  /** Stops the steps, stops serving every held channel and releases their leases so others take them at once. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    if (this.#soon) clearTimeout(this.#soon);
    this.#timer = null;
    this.#soon = null;
    await this.#tick;
    await this.#releaseKeys([...this.#held]);
  }

  #enqueue(): void {
    this.#tick = this.#tick.then(async () => {
      await this.#step();
      if (!this.#stopped) await this.#options.stepped?.(this.view()).catch(() => undefined);
    });
  }

  async #serial(work: () => Promise<void>): Promise<void> {
    const next = this.#tick.then(work);
    this.#tick = next.catch(() => undefined);
    await next;
  }

  async #step(): Promise<void> {
    if (this.#stopped) return;
    const { node } = this.#options;
    try {
      const live = await this.#options.liveNodes();
      this.#live = live.includes(node) ? live : [...live, node].sort();
      const wanted = new Set(this.#options.wanted());
      const mine: string[] = [];
      for (const key of wanted) if (rendezvousOwner(key, this.#live) === node) mine.push(key);
      const mineSet = new Set(mine);
      // Given up first (no longer wanted, or another node's now), so the new owner can take them.
      const leaving = [...this.#held].filter((key) => !mineSet.has(key));
      if (leaving.length > 0) await this.#releaseKeys(leaving);
      await this.#checkRestart();
      await this.#renew();
      const missing = mine.filter((key) => !this.#held.has(key));
      const taken = Date.now() < this.#noTakeUntil ? [] : await this.#take(missing);
      this.#waiting = missing.length - taken.length;
      this.#lastError = null;
      for (const key of taken) {
        const serving = this.#options
          .acquire(key)
          .catch((err: unknown) => this.#options.logger?.warn({ err, channel: key }, "a channel taken by this node was not served"))
          .finally(() => {
            if (this.#starting.get(key) === serving) this.#starting.delete(key);
          });
        this.#starting.set(key, serving);
      }
    } catch (err) {
      this.#lastError = (err as Error).message;
      // Unrenewed for a whole lifetime: another node may take the leases now, so serve none of them.
      if (this.#held.size > 0 && Date.now() - this.#renewedAt >= this.#options.ttlMs - this.periodMs) {
        this.#options.logger?.warn({ node, channels: this.#held.size, err: this.#lastError }, "channel leases not renewed in time; this node stops serving its channels until Redis answers");
        const all = [...this.#held];
        this.#held.clear();
        await Promise.all(all.map((key) => this.#stopServing(key)));
      }
    }
  }

  /**
   * Stops serving one channel once its start (if any) finished, waiting at most one step for each
   * (a platform that does not answer must not hold up the assignment: the lease is only released
   * after this, and a plugin releases a channel whose start is still under way); never throws.
   */
  async #stopServing(key: string): Promise<void> {
    const bounded = async (work: Promise<unknown>, what: string) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), this.periodMs)));
      const outcome = await Promise.race([work.then(() => "done" as const, () => "done" as const), late]);
      clearTimeout(timer);
      if (outcome === "late") this.#options.logger?.warn({ channel: key }, `a channel's ${what} took longer than ${this.periodMs} ms; going on`);
    };
    const starting = this.#starting.get(key);
    if (starting) await bounded(starting, "start");
    await bounded(
      this.#options.release(key).catch((err: unknown) => this.#options.logger?.warn({ err, channel: key }, "a channel did not stop cleanly")),
      "stop",
    );
  }

  /**
   * Notices a Redis restart (its run id changed): the leases it held are gone, and a holder writes
   * its own back on its next renewal (within a third of the lifetime), so no node takes a free
   * channel for one lifetime; two nodes never serve one channel after a restart without persistence.
   */
  async #checkRestart(): Promise<void> {
    const info = await this.#redis.info("server");
    const runId = /run_id:(\w+)/.exec(info)?.[1] ?? null;
    if (runId !== null && this.#runId !== null && runId !== this.#runId) {
      this.#noTakeUntil = Date.now() + this.#options.ttlMs;
      this.#options.logger?.warn({ node: this.#options.node }, "Redis restarted: channel leases are written again; free channels are taken after one lease lifetime");
    }
    if (runId !== null) this.#runId = runId;
  }

  async #renew(): Promise<void> {
    const keys = [...this.#held];
    const started = Date.now();
    const lost: string[] = [];
    for (let i = 0; i < keys.length; i += BATCH) {
      const batch = keys.slice(i, i + BATCH);
      const kept = await this.#redis.ovationChannelRenew(batch.length, ...batch.map((k) => CHANNEL_LEASE_PREFIX + k), this.#holder, this.#options.ttlMs);
      batch.forEach((key, j) => {
        if (kept[j] !== 1) lost.push(key);
      });
    }
    this.#renewedAt = started;
    if (lost.length === 0) return;
    this.#options.logger?.warn({ node: this.#options.node, channels: lost.length }, "channel leases taken by another node; this node stops serving them");
    for (const key of lost) this.#held.delete(key);
    await Promise.all(lost.map((key) => this.#stopServing(key)));
  }

  async #take(keys: readonly string[]): Promise<string[]> {
    const taken: string[] = [];
    for (let i = 0; i < keys.length && !this.#stopped; i += BATCH) {
      const batch = keys.slice(i, i + BATCH);
      const pipeline = this.#redis.pipeline();
      for (const key of batch) pipeline.set(CHANNEL_LEASE_PREFIX + key, this.#holder, "PX", this.#options.ttlMs, "NX");
      const answers = (await pipeline.exec()) ?? [];
      batch.forEach((key, j) => {
        const [error, answer] = answers[j] ?? [null, null];
        if (error) throw error;
        if (answer === "OK") {
          this.#held.add(key);
          taken.push(key);
        }
      });
    }
    return taken;
  }

  /** Stops serving `keys` (awaited), then deletes their leases when they are still ours. */
  async #releaseKeys(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.#held.delete(key);
    await Promise.all(keys.map((key) => this.#stopServing(key)));
    try {
      for (let i = 0; i < keys.length; i += BATCH) {
        const batch = keys.slice(i, i + BATCH).map((k) => CHANNEL_LEASE_PREFIX + k);
        await this.#redis.ovationChannelRelease(batch.length, ...batch, this.#holder);
      }
    } catch (err) {
      this.#options.logger?.warn({ err: (err as Error).message }, "channel leases not released; they expire on their own");
    }
  }

  /** The node id of the holder of a channel's lease, or null (for relays and status pages). */
  static async holderOf(redis: Redis, key: string): Promise<string | null> {
    const value = await redis.get(CHANNEL_LEASE_PREFIX + key);
    if (value === null) return null;
    const at = value.lastIndexOf(":");
    return at > 0 ? value.slice(0, at) : value;
  }
}
