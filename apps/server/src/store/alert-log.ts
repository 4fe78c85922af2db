import type { NotifySub } from "@ovation/core";
import { Store } from "./store.js";
import type { AlertLogEntry } from "./records.js";

/** How many alerts of one user the log keeps (oldest dropped first); replay covers these. */
export const ALERT_LOG_LIMIT_PER_USER = 500;

/** The per-user alert log: every alert sent, which browser sources acknowledged it. */
export class AlertLogRepository {
  constructor(private readonly store: Store) {}

  /** Appends an alert, dropping the user's oldest entries beyond the limit. */
  append(userId: number, notification: NotifySub, test: boolean, now = Date.now()): AlertLogEntry {
    return this.store.update((data) => {
      const entry: AlertLogEntry = {
        seq: Store.nextId(data, "alert_log"),
        user_id: userId,
        notification,
        test,
        logged_at: now,
        acked_by: [],
        cleared: false,
      };
      data.alert_log.push(entry);
      let count = 0;
      for (const e of data.alert_log) if (e.user_id === userId) count++;
      if (count > ALERT_LOG_LIMIT_PER_USER) {
        let drop = count - ALERT_LOG_LIMIT_PER_USER;
        data.alert_log = data.alert_log.filter((e) => !(e.user_id === userId && drop-- > 0));
      }
      return entry;
    });
  }

  /**
   * Alerts of the user that this browser source has not acknowledged, oldest first: logged since
   * `sinceMs` (the source's creation), not cleared.
   */
  unacknowledged(userId: number, browserSourceId: number, sinceMs: number): AlertLogEntry[] {
    return this.store.data.alert_log.filter(
      (e) => e.user_id === userId && !e.cleared && e.logged_at >= sinceMs && !e.acked_by.includes(browserSourceId),
    );
  }

  /** Records that a browser source has shown (or dropped) an alert; false when unknown or repeated. */
  acknowledge(userId: number, browserSourceId: number, notificationId: string): boolean {
    const entry = this.find(userId, notificationId);
    if (!entry || entry.acked_by.includes(browserSourceId)) return false;
    return this.store.update(() => {
      entry.acked_by.push(browserSourceId);
      return true;
    });
  }

  /** The log entry of a notification id, or undefined. */
  find(userId: number, notificationId: string): AlertLogEntry | undefined {
    const log = this.store.data.alert_log;
    for (let i = log.length - 1; i >= 0; i--) {
      const e = log[i];
      if (e && e.user_id === userId && e.notification.notification.id === notificationId) return e;
    }
    return undefined;
  }

  /** The user's log, newest first, at most `limit` entries. */
  recent(userId: number, limit: number): AlertLogEntry[] {
    const out: AlertLogEntry[] = [];
    const log = this.store.data.alert_log;
    for (let i = log.length - 1; i >= 0 && out.length < limit; i--) {
      const e = log[i];
      if (e && e.user_id === userId) out.push(e);
    }
    return out;
  }

  /** Marks every logged alert of the user as cleared (never replayed); returns how many changed. */
  clear(userId: number): number {
    return this.store.update((data) => {
      let n = 0;
      for (const e of data.alert_log) {
        if (e.user_id === userId && !e.cleared) {
          e.cleared = true;
          n++;
        }
      }
      return n;
    });
  }

  /** Ids of the user's logged non-test alerts, oldest first (seeds the de-duplication memory). */
  realNotificationIds(): Array<{ userId: number; id: string }> {
    return this.store.data.alert_log.filter((e) => !e.test).map((e) => ({ userId: e.user_id, id: e.notification.notification.id }));
  }
}
