import * as z from "zod";
import { overlayEffectSchema } from "./effects.js";

/**
 * Options of the overlay browser sources (docs/overlays.md), saved with
 * `PUT /v1/browser-source/{id}/settings` and handed to the page in its config. Every field has a
 * default, so `{}` is a valid setting of every type and a page reads an old record the same way.
 */

/** Themes of the chat box and the event list. */
export const OVERLAY_THEMES = ["dark", "light", "bubble", "clean"] as const;


const name = z.string().min(1).max(64);
const platform = z.string().regex(/^[a-z0-9_-]{1,32}$/, "must be a platform id (twitch, youtube, ...)");
const alertType = z.string().regex(/^[a-z0-9_.-]{1,64}$/, "must be an alert type (follow, subscriber, ...)");

/** `chat`: one chat box for every platform. */
export const chatSourceSettingsSchema = z.strictObject({
  theme: z.enum(OVERLAY_THEMES).default("dark"),
  /** Hide the bots' answers: messages of the accounts in `bot_names` or carrying a `bot` badge. */
  hide_bot: z.boolean().default(true),
  /** Accounts counted as bots (case-insensitive): your bot account and the common chat bots. */
  bot_names: z
    .array(name)
    .max(100)
    .default(["nightbot", "streamelements", "streamlabs", "moobot", "fossabot", "wizebot", "sery_bot", "botrix", "kicbot"]),
  /** Hide messages that start with `!`. */
  hide_commands: z.boolean().default(false),
  /** Usernames (case-insensitive) whose messages never show. */
  hidden_users: z.array(name).max(500).default([]),
  /** Platforms shown; empty: all of them. */
  platforms: z.array(platform).max(32).default([]),
  /** Seconds a line stays before it fades out; 0 keeps lines until they scroll away. */
  fade_after_seconds: z.number().int().min(0).max(3600).default(0),
  /** Lines kept on the page; the oldest go first. */
  max_lines: z.number().int().min(1).max(200).default(50),
  font_size: z.number().int().min(10).max(64).default(20),
  show_badges: z.boolean().default(true),
  show_platform_icon: z.boolean().default(true),
});

/** `events`: the activity feed. */
export const eventsSourceSettingsSchema = z.strictObject({
  theme: z.enum(OVERLAY_THEMES).default("dark"),
  /** How many alerts are listed. */
  limit: z.number().int().min(1).max(50).default(10),
  /** Alert types listed; empty: all. */
  types: z.array(alertType).max(100).default([]),
  /** Platforms listed; empty: all. */
  platforms: z.array(platform).max(32).default([]),
  /** Test alerts (`POST /v1/alerts/test`) are listed too. */
  include_tests: z.boolean().default(true),
  font_size: z.number().int().min(10).max(64).default(20),
});

/** `emotewall`: emotes of the chat burst across the screen. */
export const emotewallSourceSettingsSchema = z.strictObject({
  /** Most emotes started per second; extra ones are dropped. */
  max_per_second: z.number().int().min(1).max(100).default(15),
  /** Most emotes on screen at once. */
  max_on_screen: z.number().int().min(1).max(500).default(80),
  /** Most copies of one emote taken from one message. */
  max_per_message: z.number().int().min(1).max(50).default(5),
  size: z.number().int().min(16).max(256).default(72),
  duration_ms: z.number().int().min(1000).max(20_000).default(5000),
  platforms: z.array(platform).max(32).default([]),
});


/** `effect-alerts`: the effect played per alert type (`*` for every type without its own). */
export const effectAlertsSourceSettingsSchema = z.strictObject({
  effects: z
    .record(z.union([alertType, z.literal("*")]), overlayEffectSchema)
    .refine((map) => Object.keys(map).length <= 100, "at most 100 alert types")
    .default({
      subscribe: { effect: "confetti", per_amount: 1, min_pieces: 150, max_pieces: 400 },
      "re-subscribe": { effect: "confetti", per_amount: 1, min_pieces: 150, max_pieces: 400 },
      "gift-subscribe": { effect: "confetti", per_amount: 20, min_pieces: 150, max_pieces: 600 },
      cheer: { effect: "emote-rain", per_amount: 0.1, min_pieces: 10, max_pieces: 300 },
      raid: { effect: "fireworks", per_amount: 2, min_pieces: 80, max_pieces: 480 },
      follow: { effect: "hearts", per_amount: 1, min_pieces: 30, max_pieces: 30 },
    }),
});

/** One part of a scene: another browser source of the same user at a place, in percent of the scene. */
export const scenePartSchema = z.strictObject({
  browser_source_id: z.number().int().positive(),
  x: z.number().min(0).max(100),
  y: z.number().min(0).max(100),
  width: z.number().min(1).max(100),
  height: z.number().min(1).max(100),
});

/** `scenes`: several browser sources laid out in one page. */
export const scenesSourceSettingsSchema = z.strictObject({
  parts: z.array(scenePartSchema).max(20).default([]),
});

/** Read-aloud of one alert type: from which amount (bits, money, months...) its message is read. */
export const speechTypeSchema = z.strictObject({ min_amount: z.number().min(0).max(1_000_000).default(0) });

/**
 * Read-aloud alerts (docs/tts.md) of an `alerts` source: which alert types have their message read
 * after the alert, with which voice, and how the text is moderated first.
 */
export const speechSettingsSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** A voice of the speech engine (`GET /v1/tts/voices`); empty: the engine's default voice. */
  voice: z.string().max(64).regex(/^[A-Za-z0-9_./+-]*$/, "must be a voice id (letters, digits, _ . / + -)").default(""),
  /** Alert types read, each with its minimum amount. */
  types: z
    .record(alertType, speechTypeSchema)
    .refine((map) => Object.keys(map).length <= 50, "at most 50 alert types")
    .default({ donation: { min_amount: 1 }, cheer: { min_amount: 100 }, "re-subscribe": { min_amount: 0 }, superchat: { min_amount: 0 } }),
  /** Longest text read, in characters (after moderation). */
  max_length: z.number().int().min(10).max(500).default(200),
  /** Viewers (names or platform ids, case-insensitive) whose messages are never read. */
  blocked_viewers: z.array(name).max(1000).default([]),
  /** Hold every message until it is approved in the dashboard's speech queue. */
  approval: z.boolean().default(false),
  volume: z.number().int().min(0).max(100).default(80),
});

/** `alerts`: the read-aloud options. */
export const alertsSourceSettingsSchema = z.strictObject({ tts: speechSettingsSchema.default(speechSettingsSchema.parse({})) });

/** Options per browser source type; types without options take `{}`. */
export const BROWSER_SOURCE_SETTINGS_SCHEMAS = {
  chat: chatSourceSettingsSchema,
  events: eventsSourceSettingsSchema,
  emotewall: emotewallSourceSettingsSchema,
  "effect-alerts": effectAlertsSourceSettingsSchema,
  scenes: scenesSourceSettingsSchema,
  alerts: alertsSourceSettingsSchema,
  goalbars: z.strictObject({}),
  queue: z.strictObject({}),
  poll: z.strictObject({}),
} as const;

/** Body of `PUT /v1/browser-source/{id}/settings`: the whole option set (missing fields take their defaults). */
export const browserSourceSettingsBodySchema = z.object({ settings: z.record(z.string(), z.unknown()) });

export type ChatSourceSettings = z.output<typeof chatSourceSettingsSchema>;
export type EventsSourceSettings = z.output<typeof eventsSourceSettingsSchema>;
export type EmotewallSourceSettings = z.output<typeof emotewallSourceSettingsSchema>;
export type EffectAlertsSourceSettings = z.output<typeof effectAlertsSourceSettingsSchema>;
export type OverlayEffect = z.output<typeof overlayEffectSchema>;
export type ScenesSourceSettings = z.output<typeof scenesSourceSettingsSchema>;
export type ScenePart = z.output<typeof scenePartSchema>;
export type SpeechSettings = z.output<typeof speechSettingsSchema>;
