import { z } from "zod";
import { ConfigError, presentEnv } from "../config.js";
import { loadYouTubeEnv } from "./youtube-config.js";
import type { YouTubeEnv } from "./youtube-config.js";

/** Plugins the server knows how to load by name. */
export const KNOWN_PLUGINS = ["console", "twitch", "youtube"] as const;
/** One of {@link KNOWN_PLUGINS}. */
export type KnownPlugin = (typeof KNOWN_PLUGINS)[number];

/** Twitch settings read from `OVATION_TWITCH_*`. */
export interface TwitchEnv {
  /** `login` or `login:<ovation user id>` entries; a bare login belongs to the first user. */
  channels: { login: string; userId: number | null }[];
  username?: string;
  token?: string;
  clientId?: string;
  clientSecret?: string;
  refreshToken?: string;
  ircUrl?: string;
  eventSubUrl?: string;
  helixUrl?: string;
  tokenUrl?: string;
}

/** The platform plugin settings of the server. */
export interface PluginSettings {
  plugins: KnownPlugin[];
  twitch: TwitchEnv | null;
  /** Present when youtube is named in `OVATION_PLUGINS`. */
  youtube?: YouTubeEnv;
}

const channelEntry = z
  .string()
  .regex(/^[A-Za-z0-9_]{1,25}(:\d{1,12})?$/, "entries must be `login` or `login:<user id>`")
  .transform((entry) => {
    const [login = "", id] = entry.split(":");
    return { login: login.toLowerCase(), userId: id === undefined ? null : Number(id) };
  });

const optional = z.string().min(1).optional();
const wsUrl = z.string().regex(/^wss?:\/\/[^\s]+$/, "must be a ws:// or wss:// URL").optional();
const httpUrl = z.string().regex(/^https?:\/\/[^\s]+$/, "must be an http:// or https:// URL").optional();

const twitchEnvSchema = z.object({
  OVATION_TWITCH_CHANNELS: z
    .string({ error: "is required when the twitch plugin is enabled" })
    .transform((raw) => raw.split(",").map((s) => s.trim()).filter((s) => s !== ""))
    .pipe(z.array(channelEntry).min(1, "must name at least one channel")),
  OVATION_TWITCH_USERNAME: optional,
  OVATION_TWITCH_TOKEN: optional,
  OVATION_TWITCH_CLIENT_ID: optional,
  OVATION_TWITCH_CLIENT_SECRET: optional,
  OVATION_TWITCH_REFRESH_TOKEN: optional,
  OVATION_TWITCH_IRC_URL: wsUrl,
  OVATION_TWITCH_EVENTSUB_URL: wsUrl,
  OVATION_TWITCH_HELIX_URL: httpUrl,
  OVATION_TWITCH_TOKEN_URL: httpUrl,
});

/**
 * Reads `OVATION_PLUGINS` (comma separated, default `console`; `none` loads nothing) and, when
 * twitch or youtube is named, the `OVATION_TWITCH_*` / `OVATION_YOUTUBE_*` variables. Throws `ConfigError` naming each bad variable.
 */
export function loadPluginSettings(env: Readonly<Record<string, string | undefined>>): PluginSettings {
  const raw = (env.OVATION_PLUGINS ?? "console").trim();
  const names = raw === "" || raw === "none" ? [] : [...new Set(raw.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== ""))];
  const unknown = names.filter((n) => !(KNOWN_PLUGINS as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new ConfigError([`OVATION_PLUGINS: unknown plugin ${unknown.join(", ")} (known: ${KNOWN_PLUGINS.join(", ")}, or none)`]);
  }
  const plugins = names as KnownPlugin[];
  const youtube = plugins.includes("youtube") ? { youtube: loadYouTubeEnv(env) } : {};
  if (!plugins.includes("twitch")) return { plugins, twitch: null, ...youtube };
  const parsed = twitchEnvSchema.safeParse(presentEnv(env, Object.keys(twitchEnvSchema.shape)));
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`));
  const e = parsed.data;
  const twitch: TwitchEnv = { channels: e.OVATION_TWITCH_CHANNELS };
  if (e.OVATION_TWITCH_USERNAME) twitch.username = e.OVATION_TWITCH_USERNAME;
  if (e.OVATION_TWITCH_TOKEN) twitch.token = e.OVATION_TWITCH_TOKEN;
  if (e.OVATION_TWITCH_CLIENT_ID) twitch.clientId = e.OVATION_TWITCH_CLIENT_ID;
  if (e.OVATION_TWITCH_CLIENT_SECRET) twitch.clientSecret = e.OVATION_TWITCH_CLIENT_SECRET;
  if (e.OVATION_TWITCH_REFRESH_TOKEN) twitch.refreshToken = e.OVATION_TWITCH_REFRESH_TOKEN;
  if (e.OVATION_TWITCH_IRC_URL) twitch.ircUrl = e.OVATION_TWITCH_IRC_URL;
  if (e.OVATION_TWITCH_EVENTSUB_URL) twitch.eventSubUrl = e.OVATION_TWITCH_EVENTSUB_URL;
  if (e.OVATION_TWITCH_HELIX_URL) twitch.helixUrl = e.OVATION_TWITCH_HELIX_URL;
  if (e.OVATION_TWITCH_TOKEN_URL) twitch.tokenUrl = e.OVATION_TWITCH_TOKEN_URL;
  if ((twitch.username === undefined) !== (twitch.token === undefined)) {
    throw new ConfigError(["OVATION_TWITCH_USERNAME and OVATION_TWITCH_TOKEN: set both for a bot, or neither for read-only chat"]);
  }
  return { plugins, twitch, ...youtube };
}
