import { z } from "zod";
import { hostSettings, httpUrlSchema } from "@ovation/core/plugin-kit";

const login = z.string().regex(/^[A-Za-z0-9_]{1,25}$/, "must be a Twitch login (1-25 letters, digits, _)");
const wsUrl = z.string().regex(/^wss?:\/\/[^\s]+$/, "must be a ws:// or wss:// URL");

/**
 * The settings an operator chooses, each declared once with its validation and default: the plugin
 * takes them as options ({@link twitchPluginOptionsSchema}), the host reads them without the
 * defaults ({@link twitchSettingsSchema}). Values may arrive as strings (numbers are coerced).
 */
const twitchChoices = {
  /** The bot's login; without it (and a token) chat is anonymous and read-only. */
  username: login.optional(),
  /** User access token of the bot (with or without the `oauth:` prefix). */
  token: z.string().min(1).optional(),
  /** Twitch application client id: needed for Helix (EventSub, announcements, moderation, lookups). */
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  refreshToken: z.string().min(1).optional(),
  helixUrl: httpUrlSchema.optional(),
  tokenUrl: httpUrlSchema.optional(),
  /** Channels the bot account may join per 10 seconds (Twitch: 20 for a normal account, 2,000 for a verified bot). */
  joinsPer10s: z.coerce
    .number<number>({ error: "must be a number" })
    .int("must be a whole number")
    .positive("must be greater than 0")
    .max(2000, "must be at most 2000 (a verified bot's limit)")
    .default(20),
};

const channelEntry = z
  .string()
  .regex(/^[A-Za-z0-9_]{1,25}(:\d{1,12})?$/, "entries must be `login` or `login:<user id>`")
  .transform((entry) => {
    const [login = "", id] = entry.split(":");
    return { login: login.toLowerCase(), userId: id === undefined ? null : Number(id) };
  });

/**
 * Settings of the Twitch plugin, read from `OVATION_TWITCH_<KEY>` (its env prefix) or the `twitch`
 * section of the config file: `username` + `token` (the operator's bot account, both or neither),
 * `clientId`, `clientSecret`, `refreshToken`, `joinsPer10s`, the endpoint overrides `ircUrl`,
 * `eventsubUrl`, `helixUrl`, `tokenUrl`, and optionally `channels` the operator serves besides the
 * linked ones (comma separated `login` or `login:<ovation user id>`; a bare login belongs to the first user).
 */
export const twitchSettingsSchema = z
  .object({
    channels: z
      .string()
      .transform((raw) => raw.split(",").map((s) => s.trim()).filter((s) => s !== ""))
      .pipe(z.array(channelEntry))
      .optional(),
    ...hostSettings(twitchChoices),
    ircUrl: wsUrl.optional(),
    eventsubUrl: wsUrl.optional(),
  })
  .refine((s) => (s.username === undefined) === (s.token === undefined), {
    path: ["username"],
    message: "set both username and token for a bot, or neither for read-only chat",
  });

/** Validated Twitch settings. */
export type TwitchSettings = z.output<typeof twitchSettingsSchema>;

/** zod schema of {@link TwitchPluginOptions}: the operator's choices and the channels and endpoints the host gives it. */
export const twitchPluginOptionsSchema = z.object({
  /** Channels the operator configures (the Ovation channel id and the Twitch login); linked channels come from the host. */
  channels: z.array(z.object({ id: z.string().min(1).max(256), login })).default([]),
  ...twitchChoices,
  /** IRC-over-WebSocket server (default irc-ws.chat.twitch.tv:443, TLS). */
  irc: z
    .object({ server: z.string().min(1), port: z.number().int().min(1).max(65535), secure: z.boolean() })
    .optional(),
  /** Delay between tmi.js reconnect attempts in ms (default 1000). */
  ircReconnectMs: z.number().int().positive().optional(),
  eventsub: z
    .object({
      enabled: z.boolean().default(true),
      url: z.string().url().default("wss://eventsub.wss.twitch.tv/ws"),
      keepaliveGraceMs: z.number().int().nonnegative().optional(),
      reconnectDelayMs: z.object({ min: z.number().int().positive(), max: z.number().int().positive() }).optional(),
    })
    .optional(),
  /** Extra cheermote prefixes of the channel (the global ones are built in). */
  cheermotePrefixes: z.array(z.string().min(1).max(64)).max(500).optional(),
  /** How long connect waits for every channel to be joined before reporting `degraded` (default 10 s). */
  joinTimeoutMs: z.number().int().positive().optional(),
});

/** Options of the Twitch plugin. */
export type TwitchPluginOptions = z.input<typeof twitchPluginOptionsSchema>;
