/** By default at most this many chat messages per answer; the last is cut with `…`. */
export const CHAT_SPLIT_PARTS = 3;

/**
 * Splits bot output into chat messages of at most `max` characters (code points, the platform's
 * message limit), at spaces where possible, at most `parts` of them; text beyond that is cut and
 * marked with `…`. Control characters and line breaks become spaces (chat shows one line).
 */
export function splitChatText(text: string, max: number, parts = CHAT_SPLIT_PARTS): string[] {
  // eslint-disable-next-line no-control-regex -- control characters have no place in a chat line
  let rest = Array.from(text.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim());
  const out: string[] = [];
  while (rest.length > 0 && out.length < parts) {
    if (rest.length <= max) {
      out.push(rest.join(""));
      rest = [];
      break;
    }
    if (out.length === parts - 1) {
      out.push(`${rest.slice(0, max - 1).join("").trimEnd()}…`);
      rest = [];
      break;
    }
    let cutAt = rest.lastIndexOf(" ", max);
    if (cutAt < max / 2) cutAt = max;
    out.push(rest.slice(0, cutAt).join("").trimEnd());
    rest = Array.from(rest.slice(cutAt).join("").trimStart());
  }
  return out;
}

interface Job {
  run: () => Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Settings of a {@link SendQueue}. */
export interface SendQueueOptions {
  /** Jobs waiting at most; a further `push` is refused at once (backpressure). */
  limit: number;
  /** Gap between two sends in ms (platforms rate-limit fast posters). */
  gapMs: number;
}

/**
 * Runs sends one at a time with a gap between them. `push` resolves when its send went through
 * and rejects with the send's error; when `limit` jobs already wait it rejects at once with
 * `full()`, so a flood of answers is refused loudly instead of growing without bound.
 */
export class SendQueue {
  readonly #options: SendQueueOptions;
  readonly #jobs: Job[] = [];
  #running = false;
  #stopped = false;

  constructor(options: SendQueueOptions) {
    this.#options = options;
  }

  /** Jobs waiting (not counting the one being sent). */
  get pending(): number {
    return this.#jobs.length;
  }

  push(run: () => Promise<void>, full: () => Error): Promise<void> {
    if (this.#stopped || this.#jobs.length >= this.#options.limit) return Promise.reject(full());
    return new Promise<void>((resolve, reject) => {
      this.#jobs.push({ run, resolve, reject });
      if (!this.#running) void this.#drain();
    });
  }

  /** Refuses the waiting jobs with `reason` and every later push. */
  stop(reason: () => Error): void {
    this.#stopped = true;
    for (const job of this.#jobs.splice(0)) job.reject(reason());
  }

  async #drain(): Promise<void> {
    this.#running = true;
    let first = true;
    while (this.#jobs.length > 0) {
      if (!first && this.#options.gapMs > 0) await new Promise((r) => setTimeout(r, this.#options.gapMs));
      first = false;
      const job = this.#jobs.shift();
      if (!job) break;
      try {
        await job.run();
        job.resolve();
      } catch (err) {
        job.reject(err);
      }
    }
    this.#running = false;
  }
}
