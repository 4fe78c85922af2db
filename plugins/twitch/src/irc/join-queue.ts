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
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly send: (line: string) => void,
    private readonly perWindow: number = TWITCH_JOINS_PER_WINDOW,
    private readonly windowMs: number = TWITCH_JOIN_WINDOW_MS,
  ) {}

  /** Channels waiting to be joined. */
  get waiting(): number {
    return this.#queue.length;
  }

  add(login: string): void {
    if (!this.#queue.includes(login)) this.#queue.push(login);
    this.#pump();
  }

  remove(login: string): void {
    const at = this.#queue.indexOf(login);
    if (at >= 0) this.#queue.splice(at, 1);
  }

  clear(): void {
    this.#queue.length = 0;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #pump(): void {
    if (this.#timer) return;
    const now = Date.now();
    while (this.#sent.length > 0 && (this.#sent[0] ?? 0) <= now - this.windowMs) this.#sent.shift();
    const room = this.perWindow - this.#sent.length;
    if (room > 0 && this.#queue.length > 0) {
      const batch = this.#queue.splice(0, room);
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
    if (this.#queue.length > 0) {
      const wait = Math.max(1, (this.#sent[0] ?? now) + this.windowMs - now);
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.#pump();
      }, wait);
      this.#timer.unref?.();
    }
  }
}
