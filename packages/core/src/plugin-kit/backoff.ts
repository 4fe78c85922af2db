/** `ms` moved by up to ±20% at random, rounded, so many clients that failed together do not retry together. */
export function jitter(ms: number): number {
  return Math.round(ms * (0.8 + Math.random() * 0.4));
}

/** Bounds of a {@link Backoff}, in milliseconds. */
export interface BackoffBounds {
  /** The first wait, and the wait after {@link Backoff.reset}. */
  min: number;
  /** The longest wait. */
  max: number;
}

/**
 * Exponential reconnect backoff with jitter: each {@link Backoff.next} returns the current wait
 * (±20%) and doubles it up to `max`; {@link Backoff.reset} after a success starts again at `min`.
 */
export class Backoff {
  readonly #bounds: BackoffBounds;
  #current: number;

  constructor(bounds: BackoffBounds) {
    this.#bounds = bounds;
    this.#current = bounds.min;
  }

  /** The wait before the next attempt (jittered), doubling the one after it. */
  next(): number {
    const wait = jitter(this.#current);
    this.#current = Math.min(this.#bounds.max, this.#current * 2);
    return wait;
  }

  /** Starts again at `min` (call after a successful connection). */
  reset(): void {
    this.#current = this.#bounds.min;
  }
}
