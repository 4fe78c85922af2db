/**
 * The timers a plugin arms while connected, kept together so `disconnect` can drop them all at
 * once: `later` runs a callback after a wait, `sleep` resolves after a wait, and `clear` cancels
 * every pending callback and wakes every sleeper at once (so loops waiting in `sleep` see the
 * stop instead of hanging until their wait ends).
 */
export class Timers {
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #wakers = new Set<() => void>();

  /** Timers armed and not yet fired or cleared. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Runs `run` after `ms` milliseconds unless {@link Timers.clear} comes first. */
  later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    this.#timers.add(timer);
  }

  /** Resolves after `ms` milliseconds, or at once when {@link Timers.clear} is called; `ms <= 0` resolves at once. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#timers.delete(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#timers.add(timer);
      this.#wakers.add(wake);
    });
  }

  /** Cancels every pending `later` callback and wakes every `sleep`. */
  clear(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const wake of [...this.#wakers]) wake();
    this.#wakers.clear();
  }
}
