import type { NotifySub } from "@ovation/core";
import type { AlertLogEvent } from "./alert-log-events.js";
import type { AlertLogEntry, StoredAlertLogEntry } from "./records.js";

/**
 * The two forms of an alert-log entry: memory holds the notification as its JSON text
 * (`AlertLogEntry`), storage as an object (`StoredAlertLogEntry`, the form every store always had).
 * The backends convert at their edge: `compactEntry` on what they read, `storedEntryJson` for what
 * they write, which is the text `JSON.stringify` gave of the object form, byte for byte.
 */

/** An acknowledged-by list with no source yet, shared by new entries (frozen: `acked_by` is replaced, never changed in place). */
export const NO_ACKNOWLEDGEMENTS: readonly number[] = Object.freeze([]);

/** A new entry of the log for `notification`. */
export function newEntry(fields: { seq: number; userId: number; notification: NotifySub; test: boolean; loggedAt: number }): AlertLogEntry {
  return {
    seq: fields.seq,
    user_id: fields.userId,
    notification_json: JSON.stringify(fields.notification),
    notification_id: fields.notification.notification.id,
    test: fields.test,
    logged_at: fields.loggedAt,
    acked_by: NO_ACKNOWLEDGEMENTS,
    cleared: false,
  };
}

/** The notification of an entry, parsed from its text (a new object each call: the caller may change it). */
export function loggedNotification(entry: AlertLogEntry): NotifySub {
  return JSON.parse(entry.notification_json) as NotifySub;
}

/**
 * The entry of a stored one (a row, a line of an embedded log, an entry of a schema-1 file). Throws
 * when its notification has no id (every entry ever written has one: the log is searched by it).
 */
export function compactEntry(stored: StoredAlertLogEntry): AlertLogEntry {
  const notification = stored.notification as Partial<NotifySub> | null | undefined;
  const id = notification?.notification?.id;
  if (typeof id !== "string") throw new Error(`alert-log entry ${String(stored.seq)} of user ${String(stored.user_id)} has no notification id`);
  return {
    seq: stored.seq,
    user_id: stored.user_id,
    notification_json: JSON.stringify(notification),
    notification_id: id,
    test: stored.test,
    logged_at: stored.logged_at,
    acked_by: stored.acked_by.length === 0 ? NO_ACKNOWLEDGEMENTS : stored.acked_by,
    cleared: stored.cleared,
  };
}

/** `,"key":value` of one field, or nothing when the value is undefined (as `JSON.stringify` leaves it out). */
function field(key: string, value: unknown): string {
  return value === undefined ? "" : `,"${key}":${JSON.stringify(value)}`;
}

/**
 * The stored form's JSON of an entry: what `JSON.stringify` gives of the object form (same keys, same
 * order), without parsing the notification. `ackedBy`: the sources to store, when they differ from
 * the entry's.
 */
export function storedEntryJson(entry: AlertLogEntry, ackedBy: readonly number[] = entry.acked_by): string {
  return (
    `{"seq":${JSON.stringify(entry.seq)},"user_id":${JSON.stringify(entry.user_id)},"notification":${entry.notification_json}` +
    `${field("test", entry.test)}${field("logged_at", entry.logged_at)}${field("acked_by", ackedBy)}${field("cleared", entry.cleared)}}`
  );
}

/** The stored form of an entry, as an object (a new one each call). */
export function storedEntry(entry: AlertLogEntry): StoredAlertLogEntry {
  return JSON.parse(storedEntryJson(entry)) as StoredAlertLogEntry;
}

/** An alert-log event as stored (a line of an embedded log): an entry added is in its stored form. */
export type StoredAlertLogEvent = { t: "add"; e: StoredAlertLogEntry } | Exclude<AlertLogEvent, { t: "add" }>;

/** The event of a stored one. */
export function compactEvent(stored: StoredAlertLogEvent): AlertLogEvent {
  return stored.t === "add" ? { t: "add", e: compactEntry(stored.e) } : stored;
}

/** The stored JSON of an event: what `JSON.stringify` gave of it when entries held the notification as an object. */
export function storedEventJson(event: AlertLogEvent): string {
  return event.t === "add" ? `{"t":"add","e":${storedEntryJson(event.e)}}` : JSON.stringify(event);
}
