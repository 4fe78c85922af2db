import { z } from "zod";
import { ConfigError, presentEnv } from "../config.js";

/** YouTube plugin settings read from `OVATION_YOUTUBE_*`. */
export interface YouTubeEnv {
  /** The Ovation user whose linked YouTube account is served (default: the first user). */
  userId: number | null;
  clientId: string;
  clientSecret: string;
  /** A refresh token to start from when the user has not linked YouTube through Connections. */
  refreshToken?: string;
  apiUrl?: string;
  tokenUrl?: string;
  dailyQuota?: number;
  streamHours?: number;
  offlinePollSeconds?: number;
  subscribersPollSeconds?: number;
}

const httpUrl = z.string().regex(/^https?:\/\/[^\s]+$/, "must be an http:// or https:// URL").optional();
const positive = z.coerce.number({ error: "must be a number" }).positive("must be greater than 0").optional();

const youtubeEnvSchema = z.object({
  OVATION_YOUTUBE_CLIENT_ID: z.string({ error: "is required when the youtube plugin is enabled (the Google OAuth client id)" }).min(1),
  OVATION_YOUTUBE_CLIENT_SECRET: z.string({ error: "is required when the youtube plugin is enabled (the Google OAuth client secret)" }).min(1),
  OVATION_YOUTUBE_USER: z.string().regex(/^\d{1,12}$/, "must be an Ovation user id").transform(Number).optional(),
  OVATION_YOUTUBE_REFRESH_TOKEN: z.string().min(1).optional(),
  OVATION_YOUTUBE_API_URL: httpUrl,
  OVATION_YOUTUBE_TOKEN_URL: httpUrl,
  OVATION_YOUTUBE_DAILY_QUOTA: z.coerce.number({ error: "must be a number" }).int("must be a whole number of units").positive().optional(),
  OVATION_YOUTUBE_STREAM_HOURS: z.coerce.number({ error: "must be a number" }).positive().max(24, "must be at most 24").optional(),
  OVATION_YOUTUBE_OFFLINE_POLL_SECONDS: positive,
  OVATION_YOUTUBE_SUBSCRIBERS_POLL_SECONDS: z.coerce.number({ error: "must be a number" }).nonnegative().optional(),
});

/** Reads `OVATION_YOUTUBE_*`; throws `ConfigError` naming each bad variable. */
export function loadYouTubeEnv(env: Readonly<Record<string, string | undefined>>): YouTubeEnv {
  const parsed = youtubeEnvSchema.safeParse(presentEnv(env, Object.keys(youtubeEnvSchema.shape)));
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`));
  const e = parsed.data;
  return {
    userId: e.OVATION_YOUTUBE_USER ?? null,
    clientId: e.OVATION_YOUTUBE_CLIENT_ID,
    clientSecret: e.OVATION_YOUTUBE_CLIENT_SECRET,
    ...(e.OVATION_YOUTUBE_REFRESH_TOKEN ? { refreshToken: e.OVATION_YOUTUBE_REFRESH_TOKEN } : {}),
    ...(e.OVATION_YOUTUBE_API_URL ? { apiUrl: e.OVATION_YOUTUBE_API_URL } : {}),
    ...(e.OVATION_YOUTUBE_TOKEN_URL ? { tokenUrl: e.OVATION_YOUTUBE_TOKEN_URL } : {}),
    ...(e.OVATION_YOUTUBE_DAILY_QUOTA !== undefined ? { dailyQuota: e.OVATION_YOUTUBE_DAILY_QUOTA } : {}),
    ...(e.OVATION_YOUTUBE_STREAM_HOURS !== undefined ? { streamHours: e.OVATION_YOUTUBE_STREAM_HOURS } : {}),
    ...(e.OVATION_YOUTUBE_OFFLINE_POLL_SECONDS !== undefined ? { offlinePollSeconds: e.OVATION_YOUTUBE_OFFLINE_POLL_SECONDS } : {}),
    ...(e.OVATION_YOUTUBE_SUBSCRIBERS_POLL_SECONDS !== undefined ? { subscribersPollSeconds: e.OVATION_YOUTUBE_SUBSCRIBERS_POLL_SECONDS } : {}),
  };
}
