import type { Store } from "./store.js";

/**
 * Per-user alert queue state that outlives connections (a paused queue stays paused): the whole
 * queue (every browser source of the user) or single browser sources.
 */
export class QueueStateRepository {
  constructor(private readonly store: Store) {}

  /** Whether the user's whole queue is paused. */
  isPaused(userId: number): boolean {
    return this.store.data.queue_state[String(userId)]?.paused === true;
  }

  /** The browser sources paused one by one, ascending. */
  pausedSources(userId: number): number[] {
    return [...(this.store.data.queue_state[String(userId)]?.paused_sources ?? [])];
  }

  /** Whether this browser source is paused, by the whole queue or by itself. */
  isSourcePaused(userId: number, browserSourceId: number): boolean {
    return this.isPaused(userId) || this.pausedSources(userId).includes(browserSourceId);
  }

  /** Sets the paused flag of the whole queue; resuming the whole queue also resumes single sources. */
  setPaused(userId: number, paused: boolean): void {
    const sources = paused ? this.pausedSources(userId) : [];
    this.store.update((data) => {
      data.queue_state[String(userId)] = sources.length > 0 ? { paused, paused_sources: sources } : { paused };
    }, { users: [userId] });
  }

  /** Pauses or resumes one browser source (the whole queue's flag is unchanged). */
  setSourcePaused(userId: number, browserSourceId: number, paused: boolean): void {
    const others = this.pausedSources(userId).filter((id) => id !== browserSourceId);
    const sources = paused ? [...others, browserSourceId].sort((a, b) => a - b) : others;
    const whole = this.isPaused(userId);
    this.store.update((data) => {
      data.queue_state[String(userId)] = sources.length > 0 ? { paused: whole, paused_sources: sources } : { paused: whole };
    }, { users: [userId] });
  }
}
