import type { Logger } from "pino";

/**
 * Runs the Redis side of a shared structure and, when Redis fails (down, restarting, unreachable),
 * the local stand-in instead: what fails open (cooldowns, `cache()`, the bearer failure throttle)
 * keeps working per node during an outage. Logs one warning when an outage starts (per structure)
 * and one line when Redis answers again.
 */
export class FailOpen {
  #down = false;

  constructor(
    private readonly what: string,
    private readonly logger: Logger | undefined,
  ) {}

  /** `shared()`, or `local()` when it rejects. */
  async run<T>(shared: () => Promise<T>, local: () => T | Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await shared();
    } catch (error) {
      if (!this.#down) {
        this.#down = true;
        this.logger?.warn({ shared: this.what, err: (error as Error).message }, `Redis failed: ${this.what} fall back to this node's memory until it answers again`);
      }
      return local();
    }
    if (this.#down) {
      this.#down = false;
      this.logger?.info({ shared: this.what }, `Redis answers again: ${this.what} are shared again`);
    }
    return result;
  }
}
