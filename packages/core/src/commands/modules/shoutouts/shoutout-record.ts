import { z } from "zod";

/** Bounds of shoutouts; documented in docs/shoutouts.md. */
export const SHOUTOUT_LIMITS = {
  maxCooldownSeconds: 3600,
  maxTargetCooldownMinutes: 1440,
  messageLength: 300,
  /** Shoutouts kept for the API (newest first). */
  recent: 20,
} as const;

/** How shoutouts run. */
export const shoutoutSettingsSchema = z.object({
  /** Between two shoutouts of the channel (any target). */
  cooldown_seconds: z.number().int().min(0).max(SHOUTOUT_LIMITS.maxCooldownSeconds).default(120),
  /** Before the same streamer gets another shoutout. */
  target_cooldown_minutes: z.number().int().min(0).max(SHOUTOUT_LIMITS.maxTargetCooldownMinutes).default(60),
  /** Also give the platform's own shoutout where its plugin offers one (Twitch). */
  native: z.boolean().default(true),
  /** The chat message, with `{name}`, `{url}`, `{category}` and `{title}`; "" = the bot's own words in its language. */
  message: z.string().trim().max(SHOUTOUT_LIMITS.messageLength).default(""),
});

/** Validated shoutout settings. */
export type ShoutoutSettings = z.output<typeof shoutoutSettingsSchema>;

/** One shoutout given. */
export const shoutoutRecordSchema = z.object({
  at: z.number().int(),
  platform: z.string(),
  /** The target's login on the platform. */
  login: z.string(),
  /** The target's display name. */
  name: z.string(),
  url: z.string(),
  /** What the target last streamed ("" when the platform does not tell). */
  category: z.string(),
  /** The platform's own shoutout: `done`, `unavailable` (no such feature, scope or limit), `failed`, `off` (not asked). */
  native: z.enum(["done", "unavailable", "failed", "off"]),
  /** Why the platform's own shoutout was not given ("" when done or off). */
  detail: z.string(),
  /** Who asked: a chat username, or `api`. */
  by: z.string(),
  /** The chat message sent. */
  text: z.string(),
});

/** One shoutout given. */
export type ShoutoutRecord = z.output<typeof shoutoutRecordSchema>;

/** The cooldowns and the latest shoutouts of a channel, as stored (table `shoutouts`, key `state`). */
export const shoutoutStateSchema = z.object({
  last_at: z.number().int().nullable(),
  /** `platform\u0000login` -> when that streamer last got a shoutout (pruned once its cooldown is over). */
  targets: z.record(z.string(), z.number().int()),
  recent: z.array(shoutoutRecordSchema),
});

/** The cooldowns and the latest shoutouts of a channel. */
export type ShoutoutState = z.output<typeof shoutoutStateSchema>;

/** Where a streamer's channel is on each platform, when its plugin cannot tell. */
export const PROFILE_URLS: Readonly<Record<string, (login: string) => string>> = {
  twitch: (login) => `https://twitch.tv/${login}`,
  kick: (login) => `https://kick.com/${login}`,
  youtube: (login) => `https://youtube.com/@${login}`,
  tiktok: (login) => `https://www.tiktok.com/@${login}`,
};

/** A login as chat writes it (`@Name`): letters, digits, `_`, `.` and `-`, at most 50. */
export const SHOUTOUT_LOGIN = /^@?([A-Za-z0-9_][A-Za-z0-9_.-]{0,49})$/;

/** What a shoutout gave. */
export type ShoutoutOutcome =
  | { status: "done"; record: ShoutoutRecord }
  | { status: "cooldown"; seconds: number }
  | { status: "target_cooldown"; name: string; minutes: number }
  | { status: "unknown"; name: string }
  | { status: "bad_name" };
