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
  readonly #options: Required<QuotaBudgetOptions>;
  #day: string;
  #used = 0;
  #calls: Partial<Record<QuotaMethod, number>> = {};
  #exhausted = false;

  constructor(options: QuotaBudgetOptions) {
    this.#options = { now: Date.now, ...options };
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
    const left = this.#options.dailyUnits - this.#used - (polling ? this.#options.reserveUnits : 0);
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
    return `quota ${s.used}/${s.budget} units used today (${s.left} left${s.exhausted ? ", exhausted until midnight Pacific" : ""})`;
  }
}
