/**
 * Units each Data API call costs, from Google's published quota costs (YouTube Data API v3,
 * "Quota costs" and the Live Streaming API method pages). Every request is charged, failed ones too.
 */
export const QUOTA_COSTS = {
  "channels.list": 1,
  "liveBroadcasts.list": 1,
  "liveChatMessages.list": 5,
  "liveChatMessages.insert": 20,
  "liveChatMessages.delete": 50,
  "subscriptions.list": 1,
} as const;

/** A Data API method the plugin calls. */
export type QuotaMethod = keyof typeof QUOTA_COSTS;

/** Settings of a {@link QuotaBudget}. */
export interface QuotaBudgetOptions {
  /** Units the plugin may spend per Pacific-time day (Google's default project quota is 10,000). */
  dailyUnits: number;
  /** Expected stream length in seconds: chat polling is spread to last this long. */
  streamSeconds: number;
  /** Units kept back for sending answers and lookups; polling never spends them. */
  reserveUnits: number;
  /** Clock (ms since the epoch). */
  now?: () => number;
  /** With several nodes: the project's use by every node together, checked besides this budget. */
  project?: ProjectQuota | null;
  /** The day's budget now, when it is a share that changes as channels come and go (read at each use; replaces `dailyUnits`). */
  share?: () => number;
}

/** The Pacific-time calendar day of a moment: Google's quota day starts at midnight Pacific Time. */
export function pacificDay(ms: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Los_Angeles", year: "numeric", month: "2-digit", day: "2-digit" }).format(ms);
}

/** What the status shows: units used and left today, per method. */
export interface QuotaSnapshot {
  day: string;
  used: number;
  left: number;
  budget: number;
  calls: Partial<Record<QuotaMethod, number>>;
  /** Google answered quotaExceeded today: no call succeeds until the next Pacific day. */
  exhausted: boolean;
}

/**
 * Counts the units spent today and spreads the chat polls over the configured stream length so
 * the day's budget lasts: the interval is the larger of YouTube's own `pollingIntervalMillis` and
 * what the units left allow.
 */
export class QuotaBudget {
  readonly #options: Required<Omit<QuotaBudgetOptions, "project" | "share">>;
  readonly #project: ProjectQuota | null;
  readonly #share: (() => number) | null;
  /** The reserve asked for, before it shrank with a share. */
  readonly #reserve: number;
  #day: string;
  #used = 0;
  #calls: Partial<Record<QuotaMethod, number>> = {};
  #exhausted = false;

  constructor(options: QuotaBudgetOptions) {
    const { project = null, share = null, ...rest } = options;
    this.#options = { now: Date.now, ...rest };
    this.#project = project;
    this.#share = share;
    this.#reserve = rest.reserveUnits;
    this.#day = pacificDay(this.#options.now());
  }

  /**
   * Changes the day's budget (a share of the project's quota when several channels share it): the
   * reserve shrinks with it, to a tenth of the share at most.
   */
  setDailyUnits(units: number, reserveUnits: number = this.#options.reserveUnits): void {
    this.#options.dailyUnits = Math.max(1, Math.floor(units));
    this.#options.reserveUnits = Math.min(reserveUnits, Math.floor(this.#options.dailyUnits / 10));
  }

  #roll(): void {
    if (this.#share) {
      const units = Math.max(1, Math.floor(this.#share()));
      if (units !== this.#options.dailyUnits) this.setDailyUnits(units, this.#reserve);
    }
    const day = pacificDay(this.#options.now());
    if (day !== this.#day) {
      this.#day = day;
      this.#used = 0;
      this.#calls = {};
      this.#exhausted = false;
    }
  }

  /** Records one call of `method` (charged whether it succeeded or not). */
  charge(method: QuotaMethod): void {
    this.#roll();
    this.#used += QUOTA_COSTS[method];
    this.#calls[method] = (this.#calls[method] ?? 0) + 1;
    this.#project?.charge(QUOTA_COSTS[method]);
  }

  /** Google said quotaExceeded: nothing more today. */
  markExhausted(): void {
    this.#roll();
    this.#exhausted = true;
  }

  /** True when `method` fits in what is left (the reserve only counts for polling). */
  allows(method: QuotaMethod, polling: boolean): boolean {
    this.#roll();
    if (this.#exhausted) return false;
    const reserve = polling ? this.#options.reserveUnits : 0;
    if (this.#project && this.#project.left() - reserve < QUOTA_COSTS[method]) return false;
    const left = this.#options.dailyUnits - this.#used - reserve;
    return left >= QUOTA_COSTS[method];
  }

  /** Units used and left today. */
  snapshot(): QuotaSnapshot {
    this.#roll();
    return {
      day: this.#day,
      used: this.#used,
      left: Math.max(0, this.#options.dailyUnits - this.#used),
      budget: this.#options.dailyUnits,
      calls: { ...this.#calls },
      exhausted: this.#exhausted,
    };
  }

  /**
   * Milliseconds to wait before the next chat poll: spread what is left (minus the reserve and the
   * subscriber polls still due) over what remains of the expected stream (at least 15 minutes).
   */
  chatPollDelay(input: { platformMs: number; liveForMs: number; extraUnitsPerSecond: number; minMs: number }): number {
    this.#roll();
    const remainingSeconds = Math.max(900, this.#options.streamSeconds - input.liveForMs / 1000);
    const spendable = this.#options.dailyUnits - this.#used - this.#options.reserveUnits - input.extraUnitsPerSecond * remainingSeconds;
    const cost = QUOTA_COSTS["liveChatMessages.list"];
    const perSecond = spendable / remainingSeconds;
    const budgetMs = perSecond <= 0 ? 60_000 : Math.min(60_000, (cost / perSecond) * 1000);
    return Math.ceil(Math.max(input.platformMs, budgetMs, input.minMs));
  }

  /** One line for the plugin status: `quota 123/10000 units used today (9877 left)`. */
  describe(): string {
    const s = this.snapshot();
    const project = this.#project ? `; the installation ${this.#project.used()}/${this.#project.dailyUnits}` : "";
    return `quota ${s.used}/${s.budget} units used today (${s.left} left${s.exhausted ? ", exhausted until midnight Pacific" : ""})${project}`;
  }
}

/** What {@link ProjectQuota} needs of the nodes' shared counts (the plugin context's `quota`). */
export interface SharedCounts {
  count(name: string, units: number, ttlMs: number): Promise<number>;
  sum(name: string, value: number, ttlMs: number): Promise<number>;
}

/** How long a node's channel count lives in the shared sum unless recorded again. */
const CHANNELS_TTL_MS = 10 * 60_000;
/** How often a node records its channel count again while it spends (and learns the others'). */
const CHANNELS_REFRESH_MS = 30_000;
/** How long a day's counter is kept (a Pacific day, and margin for daylight saving). */
const DAY_TTL_MS = 26 * 3600_000;

/**
 * The project's daily quota with several nodes: every unit any channel of any node spends is added
 * to one counter per Pacific day in Redis, and each node learns the total from its additions, so the
 * installation stops at the quota together (a node may pass it by the calls already under way when
 * another spent the last units). The installation's channel count (each node records its own) is
 * what the quota is divided by, so each channel's share is the same on every node (learned when a
 * node records its own count: at each change, and every 30 s while it spends).
 */
export class ProjectQuota {
  readonly dailyUnits: number;
  readonly #shared: SharedCounts;
  readonly #now: () => number;
  #day = "";
  #used = 0;
  #local = 0;
  #channels = 0;
  #recordedAt = 0;
  #recording = false;
  #unanswered = 0;
  #calls = 0;
  #waiting: Array<() => void> = [];

  constructor(options: { dailyUnits: number; shared: SharedCounts; now?: () => number }) {
    this.dailyUnits = options.dailyUnits;
    this.#shared = options.shared;
    this.#now = options.now ?? Date.now;
  }

  #roll(): string {
    const day = pacificDay(this.#now());
    if (day !== this.#day) {
      this.#day = day;
      this.#used = 0;
    }
    return day;
  }

  /** Units the whole installation used today, as last learned. */
  used(): number {
    this.#roll();
    return this.#used;
  }

  /** Units the whole installation has left today, as last learned. */
  left(): number {
    return Math.max(0, this.dailyUnits - this.used());
  }

  /** Adds a call's units to the installation's counter (and learns its total). */
  charge(units: number): void {
    const day = this.#roll();
    this.#used += units;
    this.#unanswered += units;
    this.#calls++;
    this.#shared.count(`youtube:units:${day}`, units, DAY_TTL_MS).then(
      (total) => {
        this.#unanswered -= units;
        // The counter answers in order: its total holds this call and every earlier one, not the
        // units charged here since (still unanswered), which this node knows it spent.
        if (this.#day === day) this.#used = Math.max(this.#used, total + this.#unanswered);
        this.#answered();
      },
      () => {
        this.#unanswered -= units;
        this.#answered();
      },
    );
    if (this.#now() - this.#recordedAt >= CHANNELS_REFRESH_MS) this.served(this.#local);
  }

  /** Resolves once the counter answered every charge made so far (or failed to). */
  settled(): Promise<void> {
    if (this.#calls === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #answered(): void {
    if (--this.#calls > 0) return;
    for (const resolve of this.#waiting.splice(0)) resolve();
  }

  /** The installation's channel count as last learned (at least this node's). */
  channels(): number {
    return Math.max(this.#local, this.#channels);
  }

  /** Records how many channels this node serves now; learns the installation's count. */
  served(local: number): void {
    this.#local = local;
    if (this.#recording) return;
    this.#recording = true;
    this.#recordedAt = this.#now();
    this.#shared.sum("youtube:channels", local, CHANNELS_TTL_MS).then(
      (installation) => {
        this.#recording = false;
        this.#channels = installation;
        // This node's count changed meanwhile: record it again.
        if (this.#local !== local) this.served(this.#local);
      },
      () => {
        this.#recording = false;
      },
    );
  }
}
