import type { AlertLogEntry } from "./records.js";
import { USER_CAPS, alertLogEntryBytes } from "./user-caps.js";

/** How many alerts of one user the log keeps (oldest dropped first); replay covers these. */
export const ALERT_LOG_LIMIT_PER_USER = 500;

/**
 * One change of a user's alert log. The log is stored as these events, appended (a line each in
 * the embedded store, a row each in PostgreSQL), so recording an alert costs the same whatever
 * other users have logged.
 */
export type AlertLogEvent =
  | { t: "add"; e: AlertLogEntry }
  | { t: "ack"; seq: number; bs: number }
  | { t: "clear"; upTo: number };

/**
 * Applies an event to a user's entries (oldest first) in place; the one definition used both when
 * a change is made and when the log is read back. Adding beyond the count limit or the byte cap
 * (`USER_CAPS.alertLogBytes`) drops the oldest.
 */
export function applyAlertLogEvent(entries: AlertLogEntry[], event: AlertLogEvent): void {
  switch (event.t) {
    case "add": {
      entries.push(event.e);
      if (entries.length > ALERT_LOG_LIMIT_PER_USER) entries.splice(0, entries.length - ALERT_LOG_LIMIT_PER_USER);
      // And by bytes (USER_CAPS.alertLogBytes): the oldest go first, the new entry stays.
      let bytes = 0;
      for (const entry of entries) bytes += alertLogEntryBytes(entry);
      let drop = 0;
      while (bytes > USER_CAPS.alertLogBytes && drop < entries.length - 1) bytes -= alertLogEntryBytes(entries[drop++] as AlertLogEntry);
      if (drop > 0) entries.splice(0, drop);
      return;
    }
    case "ack": {
      const entry = findBySeq(entries, event.seq);
      if (entry && !entry.acked_by.includes(event.bs)) entry.acked_by.push(event.bs);
      return;
    }
    case "clear":
      for (const entry of entries) if (entry.seq <= event.upTo) entry.cleared = true;
      return;
  }
}

/** The entry with this sequence number (entries are in ascending seq order), or undefined. */
export function findBySeq(entries: readonly AlertLogEntry[], seq: number): AlertLogEntry | undefined {
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const entry = entries[mid]!;
    if (entry.seq === seq) return entry;
    if (entry.seq < seq) low = mid + 1;
    else high = mid - 1;
  }
  return undefined;
}
