/**
 * How much main-thread time the pattern matching of one channel's chat may take (command regex
 * triggers, auto-moderation's bad words, phrases and patterns); documented in docs/security.md.
 */
export const CHAT_BUDGET = {
  /** Matching time of one message, in milliseconds: the patterns not tried by then are skipped. */
  messageMs: 10,
  /** Matching time of one channel per window, in milliseconds: past it, patterns are skipped until the window ends. */
  windowBudgetMs: 40,
  /** Length of that window, in milliseconds. */
  windowMs: 1_000,
} as const;

/** One message whose matching was cut short: which stage, how many patterns were skipped. */
export interface ChatBudgetCut {
  channel: string;
  stage: "command_regex" | "moderation_words" | "moderation_patterns";
  skipped: number;
  /** Why: this message's own time, or the channel's time in the window. */
  reason: "message" | "window";
}

/** Options of {@link ChatBudget}. */
export interface ChatBudgetOptions {
  /** Clock in milliseconds (default `performance.now`). */
  now?: () => number;
  messageMs?: number;
  windowBudgetMs?: number;
  windowMs?: number;
  /** Called for every message whose matching was cut (the host logs it). */
  onCut?: (cut: ChatBudgetCut) => void;
}

interface Window {
  start: number;
  spent: number;
}

/**
 * The time budget of each channel's chat matching. RE2 patterns cannot be interrupted, but each
 * stays small (`CHAT_PATTERN_LIMITS`), so checking the clock between patterns bounds a message to
 * its budget plus one pattern, and a channel to its window budget: one channel's chat cannot hold
 * the thread that serves every other channel's HTTP requests and sockets. What is skipped is
 * reported through `onCut`, never silently dropped. One budget may serve several modules (the
 * command runtime and auto-moderation share the host's), so a window counts both.
 */
export class ChatBudget {
  readonly #windows = new Map<string, Window>();
  readonly #now: () => number;
  readonly #messageMs: number;
  readonly #windowBudgetMs: number;
  readonly #windowMs: number;
  readonly #onCut: ((cut: ChatBudgetCut) => void) | undefined;
  #cuts = 0;

  constructor(options: ChatBudgetOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#messageMs = options.messageMs ?? CHAT_BUDGET.messageMs;
    this.#windowBudgetMs = options.windowBudgetMs ?? CHAT_BUDGET.windowBudgetMs;
    this.#windowMs = options.windowMs ?? CHAT_BUDGET.windowMs;
    this.#onCut = options.onCut;
  }

  /** Messages cut so far (all channels). */
  get cuts(): number {
    return this.#cuts;
  }

  /** Starts timing one message of `channel`; call {@link ChatMeter.end} when its matching is done. */
  start(channel: string): ChatMeter {
    const now = this.#now();
    let window = this.#windows.get(channel);
    if (window === undefined || now - window.start >= this.#windowMs) {
      window = { start: now, spent: 0 };
      this.#windows.set(channel, window);
      // Windows of channels gone quiet are dropped as other channels start theirs.
      if (this.#windows.size > 10_000) for (const [key, w] of this.#windows) if (now - w.start >= this.#windowMs) this.#windows.delete(key);
    }
    return new ChatMeter(this, channel, window, now);
  }

  /** @internal Why the meter's message must stop matching now, or null. */
  exhausted(window: Window, began: number): "message" | "window" | null {
    const elapsed = this.#now() - began;
    if (window.spent + elapsed >= this.#windowBudgetMs) return "window";
    if (elapsed >= this.#messageMs) return "message";
    return null;
  }

  /** @internal Charges a finished message's time to its window. */
  charge(window: Window, began: number): void {
    window.spent += this.#now() - began;
  }

  /** @internal Reports a cut message. */
  cut(cut: ChatBudgetCut): void {
    this.#cuts++;
    this.#onCut?.(cut);
  }
}

/** The clock of one message's matching (from {@link ChatBudget.start}). */
export class ChatMeter {
  #ended = false;

  constructor(
    private readonly budget: ChatBudget,
    readonly channel: string,
    private readonly window: Window,
    private readonly began: number,
  ) {}

  /**
   * Checks the budget before the next pattern: false while there is time left; true when the
   * message or the channel's window is spent, after reporting that `skipped` patterns of `stage`
   * were not tried.
   */
  stop(stage: ChatBudgetCut["stage"], skipped: number): boolean {
    const reason = this.budget.exhausted(this.window, this.began);
    if (reason === null) return false;
    this.budget.cut({ channel: this.channel, stage, skipped, reason });
    return true;
  }

  /** Ends the message's matching and charges its time to the channel. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.budget.charge(this.window, this.began);
  }
}
