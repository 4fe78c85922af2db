import { z } from "zod";

/**
 * The loyalty points' stored shapes. Balances live in table `points` (the table a command's
 * `price` spends from: key = the viewer's wallet, value = an integer); the other tables are the
 * module's own, named after it.
 */

/** Per wallet: the viewer's name and platform, for the leaderboard, `!points @user` and exports. */
export const POINTS_VIEWERS_TABLE = "points_viewers";
/** The channel's points settings (key {@link POINTS_SETTINGS_KEY}). */
export const POINTS_CONFIG_TABLE = "points_config";
/** The history of changes (key {@link POINTS_HISTORY_KEY}: a list, oldest first, capped). */
export const POINTS_HISTORY_TABLE = "points_history";
export const POINTS_SETTINGS_KEY = "settings";
export const POINTS_HISTORY_KEY = "log";

/** Limits of the points module. */
export const POINTS_LIMITS = {
  /** Largest balance and largest single change. */
  maxBalance: 1_000_000_000,
  /** Changes the history keeps (the oldest go first). */
  historyEntries: 500,
  /** Data lines of one CSV import. */
  csvLines: 200_000,
  /** Characters of one CSV import. */
  csvChars: 20_000_000,
  /** Minutes of watch time one tick makes up for at most (after a pause of the server). */
  catchUpMinutes: 5,
  /** Longest `viewer` key. */
  viewerLength: 160,
  /** Longest stored viewer name. */
  nameLength: 64,
  /** Viewers' names stored per write; a tick naming more writes them in several, the event loop free between. */
  nameBatch: 2_000,
} as const;

/** Error codes the points routes answer with (docs/points.md). */
export const POINTS_ERROR_CODES = {
  /** No balance and no name is stored for that viewer. */
  viewerNotFound: "OVATION_ERR_POINTS_VIEWER_NOT_FOUND",
  /** A CSV import with bad lines: `errors` names each line; nothing was changed. */
  invalidCsv: "OVATION_ERR_POINTS_INVALID_CSV",
  /** The import would pass the store's cap of viewers; nothing was changed. */
  capReached: "OVATION_ERR_POINTS_CAP_REACHED",
} as const;

const amount = (max: number) => z.number().int().min(0).max(max);

/** A channel's points settings (every field has a default). */
export const pointsSettingsSchema = z.object({
  /** Off: no earning and no `!points` commands (a command's `price` still spends stored balances). */
  enabled: z.boolean().default(true),
  /** The currency's name in chat: "points", "cookies"... */
  currency: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^[^\p{Cc}\p{Cf}]+$/u, "must not hold control or invisible characters")
    .default("points"),
  /** Points per minute watched while live, for each viewer seen in chat in the last `active_minutes`. */
  per_minute: amount(10_000).default(1),
  /** How long a chatter counts as watching after their last message (platforms do not list lurkers alike). */
  active_minutes: z.number().int().min(1).max(120).default(10),
  /** Extra points per minute watched for subscribers (subscriber, founder or member badge). */
  subscriber_bonus: amount(10_000).default(1),
  /** Points per chat message while live, at most once per `message_cooldown_seconds` per viewer. */
  per_message: amount(10_000).default(0),
  message_cooldown_seconds: z.number().int().min(0).max(3_600).default(60),
  /** Points for a follow. */
  follow: amount(1_000_000).default(0),
  /** Points for a subscription (new, renewed, or each gifted one to the gifter). */
  subscriber: amount(1_000_000).default(0),
  /** Points per 100 bits cheered. */
  cheer_per_100: amount(1_000_000).default(0),
  /** Points per unit of currency tipped (donation, Super Chat, charity). */
  tip_per_unit: amount(1_000_000).default(0),
});

/** Points settings as stored (every field set). */
export type PointsSettings = z.output<typeof pointsSettingsSchema>;
/** Points settings as given (defaults optional). */
export type PointsSettingsInput = z.input<typeof pointsSettingsSchema>;

/** Why a balance changed. */
export const POINTS_REASONS = ["watch", "message", "follow", "subscriber", "cheer", "tip", "add", "remove", "price", "refund", "import", "link"] as const;
export type PointsReason = (typeof POINTS_REASONS)[number];

/** One change of the history. A `watch` or `message` entry sums one tick (`viewers` wallets, `delta` in total). */
export const pointsHistoryEntrySchema = z.object({
  at: z.string(),
  reason: z.enum(POINTS_REASONS),
  /** The wallet changed; null for a tick's sum over several viewers or an import. */
  viewer: z.string().nullable(),
  name: z.string().nullable(),
  delta: z.number(),
  /** The balance after, when one wallet changed. */
  balance: z.number().nullable(),
  /** Wallets changed (1 for one viewer). */
  viewers: z.number().int(),
  /** Who made it: a moderator's name, `api`, or null for the bot. */
  by: z.string().nullable(),
});
export type PointsHistoryEntry = z.output<typeof pointsHistoryEntrySchema>;

/** A viewer's stored name. */
export interface PointsViewer {
  name: string;
  platform: string;
}

/**
 * A viewer's wallet (the key of their balance): `account:<id>` when their platform account is
 * connected to an Ovation account (then one balance for all of that account's platforms), else
 * `<platform>:<platform user id>` (one balance per platform).
 */
export function pointsWallet(platform: string, platformUserId: string, account: number | null): string {
  return account === null ? `${platform}:${platformUserId}` : `account:${account}`;
}

/** The stored settings of a channel, or the defaults when none (or unreadable ones) are stored. */
export function storedPointsSettings(value: unknown): PointsSettings {
  const parsed = pointsSettingsSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : pointsSettingsSchema.parse({});
}

/** A stored viewer record, or null when the value is not one. */
export function storedViewer(value: unknown): PointsViewer | null {
  if (typeof value !== "object" || value === null) return null;
  const { name, platform } = value as { name?: unknown; platform?: unknown };
  return typeof name === "string" && typeof platform === "string" ? { name, platform } : null;
}
