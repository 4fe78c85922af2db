import { POINTS_TABLE, POINTS_VIEWERS_TABLE } from "@ovation/core";
import type { AlertLogEntry } from "./records.js";

/**
 * Per-user caps, so one tenant cannot grow the shared store without limit (docs/security.md "Limits").
 * Breaking one is answered with 422 naming the cap (commands, alert data) or a template error naming
 * it (key-value writes from templates); the alert log is trimmed instead, oldest first.
 */
export const USER_CAPS = {
  /** Bot commands per user. */
  commands: 200,
  /** Bytes of JSON of one alert's `data`. */
  alertDataBytes: 32_768,
  /** Bytes of JSON the alert log keeps per user (besides its 500-entry count); the oldest go first. */
  alertLogBytes: 2_097_152,
  /** Key-value tables (`db`/`set`/`inc` tables, points) per user. */
  kvTables: 64,
  /** Keys per user, over all of their key-value tables. */
  kvKeys: 5_000,
  /** Viewers per points table (`points`, `points_viewers`; these do not count against `kvKeys`). */
  pointsViewers: 200_000,
} as const;

/** Key-value tables with one key per viewer (points), capped per table by `pointsViewers`, not by `kvKeys`. */
export const VIEWER_TABLES: ReadonlySet<string> = new Set([POINTS_TABLE, POINTS_VIEWERS_TABLE]);

/** Bytes of JSON of a logged alert's notification. */
export function alertLogEntryBytes(entry: AlertLogEntry): number {
  return Buffer.byteLength(entry.notification_json);
}

/** Bytes of JSON of a value (alert data). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "");
}
