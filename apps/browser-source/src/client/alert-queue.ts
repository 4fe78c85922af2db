/** How an alert left the queue. `overflow` alerts were refused because the queue was full. */
export type AlertOutcome = "shown" | "skipped" | "dropped" | "failed" | "overflow";

/** What the queue is doing, for the page's `data-queue` attribute. */
export type QueueState = "idle" | "playing" | "paused";

/** A point-in-time view of the queue. */
export interface QueueSnapshot {
  state: QueueState;
  /** Alerts waiting behind the current one. */
  pending: number;
  /** Id of the alert on screen, or null. */
  current: string | null;
}

/** How the queue plays and reports alerts. */
export interface AlertQueueOptions<T> {
  /** Shows one alert; resolves when it has left the screen. Must stop early when `signal` aborts. */
  play(item: T, signal: AbortSignal): Promise<void>;
  /** Called once per enqueued alert when it leaves the queue, whatever the reason. */
  onSettled(item: T, outcome: AlertOutcome): void;
  /** Called after every change of the snapshot. */
  onChange?(snapshot: QueueSnapshot): void;
  /** Most alerts waiting at once; further ones are settled as `overflow`. Default 1000. */
  maxPending?: number;
  /** Longest a single `play` may take before the queue aborts it and moves on. Default 120 s. */
  maxPlayMs?: number;
  /** Timer functions (injectable for tests). */
  setTimer?(callback: () => void, ms: number): unknown;
  clearTimer?(handle: unknown): void;
}

interface Current<T> {
  item: T;
  controller: AbortController;
  outcomeIfAborted: AlertOutcome;
}

/**
 * Plays alerts one at a time, in arrival order. Skip ends the current alert; pause stops the next one
 * from starting (the current one finishes); resume continues; clear drops everything waiting and ends
 * the current one. An alert whose `play` rejects or overruns `maxPlayMs` never blocks the ones behind it.
 */
export class AlertQueue<T extends { id: string }> {
  readonly #options: AlertQueueOptions<T>;
  readonly #pending: T[] = [];
  #current: Current<T> | null = null;
  #paused = false;

  constructor(options: AlertQueueOptions<T>) {
    this.#options = options;
  }

  /** Adds an alert. Returns false (and settles nothing) when an alert with the same id is already queued or playing. */
  enqueue(item: T): boolean {
    if (this.#current?.item.id === item.id || this.#pending.some((p) => p.id === item.id)) return false;
    if (this.#pending.length >= (this.#options.maxPending ?? 1000)) {
      this.#options.onSettled(item, "overflow");
      return true;
    }
    this.#pending.push(item);
    this.#changed();
    this.#pump();
    return true;
  }

  /** Ends the alert on screen now. Returns false when none was playing. */
  skip(): boolean {
    if (!this.#current) return false;
    this.#current.outcomeIfAborted = "skipped";
    this.#current.controller.abort();
    return true;
  }

  /** Lets the current alert finish but starts no new one until {@link resume}. */
  pause(): void {
    if (this.#paused) return;
    this.#paused = true;
    this.#changed();
  }

  /** Starts playing waiting alerts again. */
  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.#changed();
    this.#pump();
  }

  /** Drops every waiting alert and ends the current one. */
  clear(): void {
    const dropped = this.#pending.splice(0);
    for (const item of dropped) this.#options.onSettled(item, "dropped");
    if (this.#current) {
      this.#current.outcomeIfAborted = "dropped";
      this.#current.controller.abort();
    }
    this.#changed();
  }

  /** The queue's state now. */
  snapshot(): QueueSnapshot {
    return {
      state: this.#paused ? "paused" : this.#current ? "playing" : "idle",
      pending: this.#pending.length,
      current: this.#current?.item.id ?? null,
    };
  }

  #changed(): void {
    this.#options.onChange?.(this.snapshot());
  }

  #pump(): void {
    if (this.#current || this.#paused) return;
    const item = this.#pending.shift();
    if (item === undefined) return;
    const current: Current<T> = { item, controller: new AbortController(), outcomeIfAborted: "skipped" };
    this.#current = current;
    this.#changed();

    const setTimer = this.#options.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
    const clearTimer = this.#options.clearTimer ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
    let settled = false;
    const settle = (outcome: AlertOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimer(watchdog);
      if (!current.controller.signal.aborted) current.controller.abort();
      this.#current = null;
      this.#options.onSettled(item, outcome);
      this.#changed();
      this.#pump();
    };
    const watchdog = setTimer(() => settle("failed"), this.#options.maxPlayMs ?? 120_000);
    current.controller.signal.addEventListener("abort", () => settle(current.outcomeIfAborted));

    let playing: Promise<void>;
    try {
      playing = this.#options.play(item, current.controller.signal);
    } catch {
      playing = Promise.reject(new Error("play threw"));
    }
    playing.then(
      () => settle("shown"),
      () => settle("failed"),
    );
  }
}
