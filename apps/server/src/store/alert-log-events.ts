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
  /** Clears every entry whose sequence number is at most `upTo` (the highest one logged when the queue was cleared). */
  | { t: "clear"; upTo: number };

/**
 * The bytes of JSON of each log's entries as of the last entry added, kept so that adding one does
 * not sum the whole log (up to 500 entries, once per alert on every node). Acknowledgements and
 * clears do not change it; a log changed any other way (its length differs) is summed again.
 */
const knownLogBytes = new WeakMap<readonly AlertLogEntry[], { bytes: number; length: number }>();

function logBytes(entries: readonly AlertLogEntry[]): number {
  const known = knownLogBytes.get(entries);
  if (known !== undefined && known.length === entries.length) return known.bytes;
  let bytes = 0;
  for (const entry of entries) bytes += alertLogEntryBytes(entry);
  return bytes;
}

/**
 * Applies an event to a user's entries (oldest first) in place; the one definition used both when
 * a change is made and when the log is read back. Adding beyond the count limit or the byte cap
 * (`USER_CAPS.alertLogBytes`) drops the oldest.
 */
export function applyAlertLogEvent(entries: AlertLogEntry[], event: AlertLogEvent): void {
  switch (event.t) {
    case "add": {
      let bytes = logBytes(entries);
      const before = entries.length;
      insertInTimeOrder(entries, event.e);
      if (entries.length > before) bytes += alertLogEntryBytes(event.e);
      if (entries.length > ALERT_LOG_LIMIT_PER_USER) {
        for (const dropped of entries.splice(0, entries.length - ALERT_LOG_LIMIT_PER_USER)) bytes -= alertLogEntryBytes(dropped);
      }
      // And by bytes (USER_CAPS.alertLogBytes): the oldest go first, the new entry stays.
      let drop = 0;
      while (bytes > USER_CAPS.alertLogBytes && drop < entries.length - 1) bytes -= alertLogEntryBytes(entries[drop++] as AlertLogEntry);
      if (drop > 0) entries.splice(0, drop);
      knownLogBytes.set(entries, { bytes, length: entries.length });
      return;
    }
    case "ack": {
      const entry = findBySeq(entries, event.seq);
      // `concat` makes an array of the exact size (24 bytes of elements for one source): a push onto
      // the empty `[]` of a new entry, or a spread, reserves room for 17 (152 bytes), in an entry the
      // log keeps for its 500 newest alerts (measured on Node 20).
      if (entry && !entry.acked_by.includes(event.bs)) entry.acked_by = entry.acked_by.concat(event.bs);
      return;
    }
    case "clear":
      for (const entry of entries) if (entry.seq <= event.upTo) entry.cleared = true;
      return;
  }
}

/** Whether `a` is logged before `b`: by `logged_at`, then by sequence number. */
function before(a: AlertLogEntry, b: AlertLogEntry): boolean {
  return a.logged_at < b.logged_at || (a.logged_at === b.logged_at && a.seq < b.seq);
}

/**
 * Inserts an entry where its time puts it (almost always the end). With several nodes on one
 * PostgreSQL database, sequence numbers come from per-node blocks, so an entry logged by another
 * node may carry a lower number than a local one logged earlier: the log is kept in time order, not
 * in sequence order. An entry already present (same seq) is not added twice.
 */
function insertInTimeOrder(entries: AlertLogEntry[], entry: AlertLogEntry): void {
  let at = entries.length;
  while (at > 0 && before(entry, entries[at - 1] as AlertLogEntry)) at--;
  for (let i = at - 1; i >= 0 && (entries[i] as AlertLogEntry).logged_at === entry.logged_at; i--) if ((entries[i] as AlertLogEntry).seq === entry.seq) return;
  entries.splice(at, 0, entry);
}

/** The entry with this sequence number, or undefined (searched from the newest: lookups are mostly recent). */
export function findBySeq(entries: readonly AlertLogEntry[], seq: number): AlertLogEntry | undefined {
  for (let i = entries.length - 1; i >= 0; i--) if ((entries[i] as AlertLogEntry).seq === seq) return entries[i];
  return undefined;
}
