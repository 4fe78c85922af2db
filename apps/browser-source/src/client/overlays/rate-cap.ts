/**
 * A token bucket: at most `perSecond` takes a second on average, with a burst of as many. Used by the
 * emote wall and the effects so a flood of chat or alerts cannot flood the GPU.
 */
export class RateCap {
  #tokens: number;
  #last: number;
  #perSecond: number;

  constructor(perSecond: number, now: () => number = Date.now) {
    this.#perSecond = perSecond;
    this.#tokens = perSecond;
    this.#now = now;
    this.#last = now();
  }

  readonly #now: () => number;

  /** Changes the rate (the bucket keeps what it holds, up to the new size). */
  set perSecond(value: number) {
    this.#perSecond = value;
    this.#tokens = Math.min(this.#tokens, value);
  }

  /** Takes one token; false when the cap is reached. */
  take(): boolean {
    const now = this.#now();
    this.#tokens = Math.min(this.#perSecond, this.#tokens + ((now - this.#last) / 1000) * this.#perSecond);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
