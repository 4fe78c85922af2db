import type { Store } from "./store.js";

/** Per-user alert queue state that outlives connections (a paused queue stays paused). */
export class QueueStateRepository {
  constructor(private readonly store: Store) {}

  /** Whether the user's queue is paused. */
  isPaused(userId: number): boolean {
    return this.store.data.queue_state[String(userId)]?.paused === true;
  }

  /** Sets the paused flag. */
  setPaused(userId: number, paused: boolean): void {
    this.store.update((data) => {
      data.queue_state[String(userId)] = { paused };
    }, { users: [userId] });
  }
}
