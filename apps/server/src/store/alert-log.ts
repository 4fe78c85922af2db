import type { NotifySub } from "@ovation/core";
import type { Store } from "./store.js";
import { findBySeq } from "./alert-log-events.js";
import { newEntry } from "./logged-alert.js";
import type { AlertLogEntry } from "./records.js";

export { ALERT_LOG_LIMIT_PER_USER } from "./alert-log-events.js";

/**
 * A notification logged before the payload moved to the top of `event` (`event: {data, random,
 * template, test}`) rewritten in the current shape (payload in `event`, the rest in `ovation`);
 * null when it already has the current shape. The realtime gateway applies it to what it sends again
 * (replays), so an alert logged before the change is sent in the documented shape.
 */
export function upgradeLoggedNotification(notification: NotifySub): NotifySub | null {
  const event = notification.event;
  if (notification.ovation !== undefined || Array.isArray(event)) return null;
  const data = event["data"];
  if (typeof event["test"] !== "boolean" || !("template" in event) || data === null || typeof data !== "object") return null;
  const { random, template, test, replay } = event as { random?: unknown; template?: unknown; test: boolean; replay?: unknown };
  return {
    ...notification,
    event: Array.isArray(data) ? {} : (data as Record<string, unknown>),
    ovation: {
      ...(typeof random === "number" ? { random } : {}),
      template: template !== null && typeof template === "object" ? (template as Record<string, unknown>) : null,
      test,
      ...(replay === true ? { replay: true } : {}),
    },
  };
}

/**
 * The per-user alert log: every alert sent, which browser sources acknowledged it. Each change is
 * an event appended to the user's own log (`Store.logAlert`), bounded to the newest
 * ALERT_LOG_LIMIT_PER_USER alerts.
 */
export class AlertLogRepository {
  constructor(private readonly store: Store) {}

  #entries(userId: number): readonly AlertLogEntry[] {
    return this.store.data.alert_log[String(userId)] ?? [];
  }

  /** Appends an alert (held as its JSON text: `logged-alert.ts`), dropping the user's oldest entries beyond the limit. */
  append(userId: number, notification: NotifySub, test: boolean, now = Date.now()): AlertLogEntry {
    const entry = newEntry({ seq: this.store.nextAlertSeq(), userId, notification, test, loggedAt: now });
    this.store.logAlert(userId, { t: "add", e: entry });
    return entry;
  }

  /**
   * Alerts of the user that this browser source has not acknowledged, oldest first: logged since
   * `sinceMs` (the source's creation), not cleared.
   */
  unacknowledged(userId: number, browserSourceId: number, sinceMs: number): AlertLogEntry[] {
    return this.#entries(userId).filter((e) => !e.cleared && e.logged_at >= sinceMs && !e.acked_by.includes(browserSourceId));
  }

  /** Records that a browser source has shown (or dropped) an alert; false when unknown or repeated. */
  acknowledge(userId: number, browserSourceId: number, notificationId: string): boolean {
    const entry = this.find(userId, notificationId);
    if (!entry || entry.acked_by.includes(browserSourceId)) return false;
    this.store.logAlert(userId, { t: "ack", seq: entry.seq, bs: browserSourceId });
    return true;
  }

  /** The log entry of a notification id, or undefined. */
  find(userId: number, notificationId: string): AlertLogEntry | undefined {
    const log = this.#entries(userId);
    for (let i = log.length - 1; i >= 0; i--) {
      const e = log[i];
      if (e && e.notification_id === notificationId) return e;
    }
    return undefined;
  }

  /** The entry with this sequence number, or undefined. */
  findBySeq(userId: number, seq: number): AlertLogEntry | undefined {
    return findBySeq(this.#entries(userId), seq);
  }

  /** The user's log, newest first, at most `limit` entries. */
  recent(userId: number, limit: number): AlertLogEntry[] {
    const log = this.#entries(userId);
    const out: AlertLogEntry[] = [];
    for (let i = log.length - 1; i >= 0 && out.length < limit; i--) {
      const e = log[i];
      if (e) out.push(e);
    }
    return out;
  }

  /** Marks every logged alert of the user as cleared (never replayed); returns how many changed. */
  clear(userId: number): number {
    const log = this.#entries(userId);
    const n = log.filter((e) => !e.cleared).length;
    // The highest number, not the last entry's: with several nodes the log is in time order.
    const upTo = log.reduce((max, e) => Math.max(max, e.seq), 0);
    if (n > 0) this.store.logAlert(userId, { t: "clear", upTo });
    return n;
  }

  /** Ids of every user's logged non-test alerts, oldest first per user (seeds the de-duplication memory). */
  realNotificationIds(): Array<{ userId: number; id: string }> {
    const out: Array<{ userId: number; id: string }> = [];
    for (const entries of Object.values(this.store.data.alert_log)) for (const e of entries) if (!e.test) out.push({ userId: e.user_id, id: e.notification_id });
    return out;
  }
}
