import { z } from "zod";
import { httpUrlSchema, oauthTokensSchema } from "@ovation/core/plugin-kit";

const url = httpUrlSchema;

/** zod schema of the YouTube plugin's settings ({@link YouTubePluginOptions}). */
export const youtubePluginOptionsSchema = z.object({
  /** The Ovation channel (user) id whose YouTube channel is served. */
  channelId: z.string().min(1).max(256),
  /** OAuth client of the Google Cloud project (type "Web application" or "Desktop app"). */
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /**
   * The linked account's tokens: the refresh token is required, the access token is refreshed when
   * absent. Without tokens the plugin registers but its connect fails with the step that fixes it.
   */
  tokens: oauthTokensSchema.optional(),
  apiUrl: url.default("https://www.googleapis.com/youtube/v3"),
  tokenUrl: url.default("https://oauth2.googleapis.com/token"),
  quota: z
    .object({
      /** Units the plugin may spend per Pacific-time day (Google's default per project: 10,000). */
      dailyUnits: z.number().int().positive().default(10_000),
      /** Expected stream length: chat polling is spread so the budget lasts this long. */
      streamHours: z.number().positive().max(24).default(4),
      /** Units kept for answers (20 each) and lookups; polling never spends them. */
      reserveUnits: z.number().int().nonnegative().default(1_000),
    })
    .prefault({}),
  /** How often to look for a live broadcast while none is live (1 unit per look). */
  offlinePollSeconds: z.number().positive().default(300),
  /** How often to look for new subscribers (1 unit per look); 0 turns follows off. */
  subscribersPollSeconds: z.number().nonnegative().default(120),
  /** Lower bound of the chat poll interval in ms, besides YouTube's `pollingIntervalMillis` and the budget. */
  minChatPollMs: z.number().int().nonnegative().default(1_000),
  /** Gap between two chat messages the bot sends, in ms. */
  sendGapMs: z.number().int().nonnegative().default(1_000),
  /** Answers waiting to be sent at most; more are refused (and logged). */
  sendQueueLimit: z.number().int().positive().default(20),
  /** Refresh the access token this long before it expires. */
  refreshMarginSeconds: z.number().int().nonnegative().default(300),
  /** Backoff after a failed poll (doubles up to max, with jitter). */
  backoffMs: z.object({ min: z.number().int().positive(), max: z.number().int().positive() }).default({ min: 2_000, max: 120_000 }),
});

/** Settings of the YouTube plugin (input form: defaults may be left out). */
export type YouTubePluginOptions = z.input<typeof youtubePluginOptionsSchema>;
