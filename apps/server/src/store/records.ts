import type { CommandFields, NotifySub } from "@ovation/core";

/** A user account. `password_hash` null means a shadow account (created through a platform login). */
export interface UserRecord {
  id: number;
  uuid: string;
  name: string;
  email: string | null;
  email_verified_at: string | null;
  password_hash: string | null;
  avatar: string | null;
  created_at: string;
  updated_at: string;
}

/** A platform account linked to a user; it gives the user the room `<uuid>.<platform>.<platform_user_id>`. */
export interface ConnectionRecord {
  id: number;
  user_id: number;
  platform: string;
  platform_user_id: string;
  username: string;
  avatar_url: string | null;
  /** The bot serves this channel (absent in data written before it existed: on). */
  bot_enabled?: boolean;
  created_at: string;
  updated_at: string;
}

/** A personal access token; only the sha256 of the secret is kept. */
export interface PersonalAccessTokenRecord {
  id: number;
  user_id: number;
  name: string;
  scopes: string[];
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** The four browser-source types of the spec. */
export { BROWSER_SOURCE_TYPES } from "@ovation/core/api";
export type { BrowserSourceType } from "@ovation/core/api";
import type { BrowserSourceType } from "@ovation/core/api";

/**
 * A browser source. The access token is kept as issued: the spec returns the same record (token
 * included) when it is generated again, so it cannot be hashed; `regenerate` replaces it.
 */
export interface BrowserSourceRecord {
  id: number;
  user_id: number;
  identifier: string | null;
  browser_source_type: BrowserSourceType;
  access_token: string;
  /** The source's options (docs/overlays.md), as validated when saved; absent on records made before them. */
  settings?: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** An alert set. `config` holds the engine document (AE4: `default`, `defaults`, `variations`). */
export interface AlertSetRecord {
  id: number;
  user_id: number;
  name: string;
  version: number;
  active: boolean;
  config: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/**
 * A chat-bot command (docs/commands.md, "The command record"): the commands module's writable fields
 * with the store's id, owner and times; `commands` is derived on output.
 */
export interface CommandRecord extends CommandFields {
  id: number;
  user_id: number;
  created_at: string;
  updated_at: string;
}

/**
 * One alert of a user's alert log, with the browser sources that have acknowledged it, as memory
 * holds it: the notification as its JSON text (`loggedNotification` in `logged-alert.ts` parses it).
 * The log keeps each user's 500 newest alerts, about 2.5 s at 200 alerts a second, so every entry
 * outlives a young-generation GC or two and is copied by each: one string is copied as one block,
 * where the notification's tree was about 30 objects. Stored, an entry has the notification as an
 * object (`StoredAlertLogEntry`), as it always had.
 */
export interface AlertLogEntry {
  seq: number;
  user_id: number;
  /** `JSON.stringify` of the notification (a `NotifySub`, or one logged in an older shape: `upgradeLoggedNotification`). */
  notification_json: string;
  /** The notification's `notification.id` (the log is searched by it). */
  notification_id: string;
  test: boolean;
  /** Milliseconds since the epoch, for ordering and for browser sources created later. */
  logged_at: number;
  /** Replaced when a source is added, never changed in place (new entries share one empty list). */
  acked_by: readonly number[];
  /** Cleared through the queue API: never replayed. */
  cleared: boolean;
}

/** An alert-log entry as it is stored (embedded files, PostgreSQL rows, schema-1 files) and always was. */
export interface StoredAlertLogEntry {
  seq: number;
  user_id: number;
  notification: NotifySub;
  test: boolean;
  logged_at: number;
  acked_by: number[];
  cleared: boolean;
}

/** A user's alert queue state: all browser sources paused, or only some (by browser source id). */
export interface QueueStateRecord {
  paused: boolean;
  /** Browser sources paused one by one (`/v1/alerts/queue/pause` with `browser_source_id`). */
  paused_sources?: number[];
}

/**
 * Everything the host stores, held in memory. It is persisted in documents (one per user, one per
 * key-value channel, one per extension, one for the installation) plus an append-only alert log
 * per user, so a change costs the same whatever other users hold; see `partitions.ts`.
 */
export interface StoreData {
  schema_version: 2;
  sequences: Record<string, number>;
  users: UserRecord[];
  connections: ConnectionRecord[];
  personal_access_tokens: PersonalAccessTokenRecord[];
  browser_sources: BrowserSourceRecord[];
  alert_sets: AlertSetRecord[];
  commands: CommandRecord[];
  /** Each user's alert log, oldest first, keyed by user id. */
  alert_log: Record<string, AlertLogEntry[]>;
  /** Per-user queue state (paused), keyed by user id. */
  queue_state: Record<string, QueueStateRecord>;
  /** Data of other modules (identity, plugins), one key each; see `Store.extension`. */
  extensions: Record<string, unknown>;
  /** Facts about the installation (first-run bootstrap). */
  meta: Record<string, unknown>;
}

/** An empty store document. */
export function emptyStoreData(): StoreData {
  return {
    schema_version: 2,
    sequences: {},
    users: [],
    connections: [],
    personal_access_tokens: [],
    browser_sources: [],
    alert_sets: [],
    commands: [],
    alert_log: {},
    queue_state: {},
    extensions: {},
    meta: {},
  };
}

/** A timestamp in the reference's format: ISO 8601 UTC with six fractional digits (`...41.000000Z`). */
export function timestamp(date: Date = new Date()): string {
  const iso = date.toISOString();
  // `...sss` + `000Z`; a year beyond 9999 (`+0100...`) has the same tail.
  return `${iso.slice(0, -1)}000Z`;
}
