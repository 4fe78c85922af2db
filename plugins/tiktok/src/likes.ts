/** The likes of one window, added up. */
export interface LikeWindow {
  /** Id of the window's first like message (the notification id). */
  id: string;
  /** Taps in the window. */
  count: number;
  /** Distinct users who tapped. */
  users: number;
  /** The user who tapped most, and how often. */
  top: { name: string; count: number };
  /** The room's running total TikTok last gave, or null. */
  total: number | null;
  startedAt: number;
}

/**
 * Adds likes up over a window: the first like opens a window, `flush` (called when it closes)
 * returns the sum once. Never one notification per tap.
 */
export class LikeAggregator {
  #window: (LikeWindow & { perUser: Map<string, { name: string; count: number }> }) | null = null;

  /** Adds a like message; returns true when it opened a new window (the caller schedules its flush). */
  add(id: string, userId: string, name: string, count: number, total: number | null, now = Date.now()): boolean {
    const opened = this.#window === null;
    const w = (this.#window ??= { id, count: 0, users: 0, top: { name, count: 0 }, total: null, startedAt: now, perUser: new Map() });
    w.count += count;
    if (total !== null) w.total = total;
    const user = w.perUser.get(userId) ?? { name, count: 0 };
    user.count += count;
    w.perUser.set(userId, user);
    if (user.count > w.top.count) w.top = { name: user.name, count: user.count };
    w.users = w.perUser.size;
    return opened;
  }

  /** Closes the window: its sum, or null when nothing was liked. */
  flush(): LikeWindow | null {
    const w = this.#window;
    this.#window = null;
    if (!w || w.count === 0) return null;
    return { id: w.id, count: w.count, users: w.users, top: w.top, total: w.total, startedAt: w.startedAt };
  }
}
