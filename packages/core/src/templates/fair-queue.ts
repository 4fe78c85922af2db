/** How fair scheduling of renders treats channels that hit their limits (documented in docs/templates.md). */
export const FAIR_SCHEDULING = {
  /** Half-life of a channel's penalty, in milliseconds: one limit hit keeps it "noisy" about this long. */
  penaltyHalfLifeMs: 30_000,
  /** A channel whose decayed penalty is at least this is noisy. */
  noisyThreshold: 0.5,
} as const;

/**
 * Renders waiting for the sandbox, queued per channel and taken round-robin, so one busy channel
 * cannot fill a batch ahead of the others. A channel whose renders hit the time or memory limit
 * (or crash the sandbox) is penalised; while its penalty lasts it is "noisy": its renders are only
 * taken when asked for explicitly ({@link takeNoisy}), one at a time, after the quiet channels'.
 */
export class FairQueue<T> {
  readonly #queues = new Map<string, T[]>();
  readonly #penalties = new Map<string, { score: number; at: number }>();
  #size = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Renders waiting. */
  get size(): number {
    return this.#size;
  }

  /** Queues `item` of `channel` (after that channel's earlier items). */
  push(channel: string, item: T): void {
    let queue = this.#queues.get(channel);
    if (queue === undefined) {
      queue = [];
      this.#queues.set(channel, queue);
    }
    queue.push(item);
    this.#size++;
  }

  /** Counts one limit hit against `channel`. */
  penalize(channel: string): void {
    this.#penalties.set(channel, { score: this.penalty(channel) + 1, at: this.now() });
  }

  /** The channel's penalty now (decayed). */
  penalty(channel: string): number {
    const entry = this.#penalties.get(channel);
    if (entry === undefined) return 0;
    const score = entry.score * 0.5 ** ((this.now() - entry.at) / FAIR_SCHEDULING.penaltyHalfLifeMs);
    if (score < 0.01) this.#penalties.delete(channel);
    return score;
  }

  /** Whether `channel` recently hit its limits. */
  isNoisy(channel: string): boolean {
    return this.penalty(channel) >= FAIR_SCHEDULING.noisyThreshold;
  }

  /** Up to `max` items of quiet channels, one per channel in turn (round-robin). */
  takeQuiet(max: number): T[] {
    const out: T[] = [];
    const quiet = [...this.#queues.keys()].filter((channel) => !this.isNoisy(channel));
    while (out.length < max && quiet.length > 0) {
      for (let i = 0; i < quiet.length && out.length < max; ) {
        const channel = quiet[i] as string;
        const item = this.#shift(channel);
        if (item === undefined) quiet.splice(i, 1);
        else {
          out.push(item);
          i++;
        }
      }
    }
    return out;
  }

  /** The next item of the noisy channels, taking the least penalised channel first; undefined when none. */
  takeNoisy(): T | undefined {
    let best: string | undefined;
    let bestPenalty = Number.POSITIVE_INFINITY;
    for (const channel of this.#queues.keys()) {
      const penalty = this.penalty(channel);
      if (penalty >= FAIR_SCHEDULING.noisyThreshold && penalty < bestPenalty) {
        best = channel;
        bestPenalty = penalty;
      }
    }
    return best === undefined ? undefined : this.#shift(best);
  }

  /** Removes and returns every waiting item (close, give-up after crashes). */
  drain(): T[] {
    const out = [...this.#queues.values()].flat();
    this.#queues.clear();
    this.#size = 0;
    return out;
  }

  #shift(channel: string): T | undefined {
    const queue = this.#queues.get(channel);
    const item = queue?.shift();
    if (item !== undefined) this.#size--;
    // Round-robin order follows insertion: a channel that empties goes to the back when it returns.
    if (queue !== undefined && queue.length === 0) this.#queues.delete(channel);
    return item;
  }
}
