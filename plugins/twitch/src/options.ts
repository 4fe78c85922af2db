import { z } from "zod";

const login = z.string().regex(/^[A-Za-z0-9_]{1,25}$/, "must be a Twitch login (1-25 letters, digits, _)");

/** zod schema of {@link TwitchPluginOptions}. */
export const twitchPluginOptionsSchema = z.object({
  /** Channels the operator configures (the Ovation channel id and the Twitch login); linked channels come from the host. */
  channels: z.array(z.object({ id: z.string().min(1).max(256), login })).default([]),
  /** The bot's login; without it (and a token) chat is anonymous and read-only. */
  username: login.optional(),
  /** User access token of the bot (with or without the `oauth:` prefix). */
  token: z.string().min(1).optional(),
  /** Twitch application client id: needed for Helix (EventSub, announcements, moderation, lookups). */
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  refreshToken: z.string().min(1).optional(),
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
  helixUrl: z.string().url().optional(),
  tokenUrl: z.string().url().optional(),
  /** Extra cheermote prefixes of the channel (the global ones are built in). */
  cheermotePrefixes: z.array(z.string().min(1).max(64)).max(500).optional(),
  /** How long connect waits for every channel to be joined before reporting `degraded` (default 10 s). */
  joinTimeoutMs: z.number().int().positive().optional(),
  /** Channels the bot account may join per 10 seconds (Twitch: 20 for a normal account, 2,000 for a verified bot). */
  joinsPer10s: z.number().int().positive().max(2000).default(20),
});

/** Options of the Twitch plugin. */
export type TwitchPluginOptions = z.input<typeof twitchPluginOptionsSchema>;
