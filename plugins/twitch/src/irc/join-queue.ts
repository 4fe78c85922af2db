/** Twitch's join limit for a normal account: 20 channels per 10 seconds (verified bots: 2,000). */
export const TWITCH_JOINS_PER_WINDOW = 20;
/** The window of the join limit. */
export const TWITCH_JOIN_WINDOW_MS = 10_000;

/**
 * Joins channels no faster than Twitch allows: at most `perWindow` channels in any `windowMs`,
 * several channels per `JOIN #a,#b` line. Channels parted while waiting are dropped from the queue.
 */
export class JoinQueue {
  readonly #queue: string[] = [];
  readonly #sent: number[] = [];
  /** Channels parted while the shared limit was asked: not joined when the answer comes. */
  readonly #parted = new Set<string>();
  #timer: NodeJS.Timeout | null = null;

  #asking = false;
  /** Bumped by clear(): an answer of the shared limit for an older generation is dropped. */
  #generation = 0;

  /**
   * @param shared with several nodes: takes units of the bot account's join limit shared by every
   *   node (resolves with how many were granted); the queue joins only what it was granted.
   */
  constructor(
    private readonly send: (line: string) => void,
    private readonly perWindow: number = TWITCH_JOINS_PER_WINDOW,
    private readonly windowMs: number = TWITCH_JOIN_WINDOW_MS,
    private readonly shared?: (wanted: number) => Promise<number>,
  ) {}

  /** Channels waiting to be joined. */
  get waiting(): number {
    return this.#queue.length;
  }

  add(login: string): void {
    this.#parted.delete(login);
    if (!this.#queue.includes(login)) this.#queue.push(login);
    this.#pump();
  }

  remove(login: string): void {
    const at = this.#queue.indexOf(login);
    if (at >= 0) this.#queue.splice(at, 1);
    if (this.#asking) this.#parted.add(login);
  }

  clear(): void {
    this.#generation++;
    this.#asking = false;
    this.#parted.clear();
    this.#queue.length = 0;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #pump(): void {
    if (this.#timer || this.#asking) return;
    const now = Date.now();
    while (this.#sent.length > 0 && (this.#sent[0] ?? 0) <= now - this.windowMs) this.#sent.shift();
    const room = this.perWindow - this.#sent.length;
    if (room > 0 && this.#queue.length > 0) {
      const batch = this.#queue.splice(0, room);
      if (this.shared) {
        this.#ask(batch);
        return;
      }
      this.#join(batch, now);
    }
    this.#later(Math.max(1, (this.#sent[0] ?? now) + this.windowMs - now));
  }

  /** Several nodes: joins what the shared limit grants of `batch`, puts the rest back in front. */
  #ask(batch: string[]): void {
    this.#asking = true;
    const generation = this.#generation;
    const retry = Math.max(250, Math.ceil(this.windowMs / Math.max(1, this.perWindow)));
    void this.shared!(batch.length).then(
      (granted) => {
        if (generation !== this.#generation) return;
        this.#asking = false;
        const now = Date.now();
        const go = batch.slice(0, granted).filter((login) => !this.#parted.has(login));
        const back = batch.slice(granted).filter((login) => !this.#parted.has(login) && !this.#queue.includes(login));
        this.#parted.clear();
        this.#queue.unshift(...back);
        this.#join(go, now);
        if (granted < batch.length) this.#later(retry);
        else this.#pump();
      },
      () => {
        if (generation !== this.#generation) return;
        this.#asking = false;
        this.#queue.unshift(...batch.filter((login) => !this.#parted.has(login) && !this.#queue.includes(login)));
        this.#parted.clear();
        this.#later(1_000);
      },
    );
  }

  #join(batch: readonly string[], now: number): void {
    // One line per batch, under IRC's 512-byte line limit.
    let line: string[] = [];
    const flush = () => {
      if (line.length > 0) this.send(`JOIN ${line.map((l) => `#${l}`).join(",")}`);
      line = [];
    };
    for (const login of batch) {
      if ((line.join(",").length + login.length + 8) > 480) flush();
      line.push(login);
      this.#sent.push(now);
    }
    flush();
  }

  #later(wait: number): void {
    if (this.#timer || this.#queue.length === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#pump();
    }, wait);
    this.#timer.unref?.();
  }
}
