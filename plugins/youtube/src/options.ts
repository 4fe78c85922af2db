import { z } from "zod";
import { hostSettings, httpUrlSchema, oauthTokensSchema } from "@ovation/core/plugin-kit";

const url = httpUrlSchema;
const number = () => z.coerce.number<number>({ error: "must be a number" });

/** Google's default daily quota of a project, in units. */
export const YOUTUBE_DEFAULT_DAILY_QUOTA = 10_000;

/** OAuth client of the Google Cloud project (type "Web application" or "Desktop app"), required by both views. */
const googleClient = {
  clientId: z.string({ error: "is required when the youtube plugin is enabled (the Google OAuth client id)" }).min(1),
  clientSecret: z.string({ error: "is required when the youtube plugin is enabled (the Google OAuth client secret)" }).min(1),
};

/**
 * The settings an operator chooses, each declared once with its validation and default: the plugin
 * takes them as options ({@link youtubePluginOptionsSchema}), the host reads them without the
 * defaults ({@link youtubeSettingsSchema}). Values may arrive as strings (numbers are coerced).
 */
const youtubeChoices = {
  apiUrl: url.default("https://www.googleapis.com/youtube/v3"),
  tokenUrl: url.default("https://oauth2.googleapis.com/token"),
  /** How often to look for a live broadcast while none is live (1 unit per look). */
  offlinePollSeconds: number().positive("must be greater than 0").default(300),
  /** How often to look for new subscribers (1 unit per look); 0 turns follows off. */
  subscribersPollSeconds: number().nonnegative("must be 0 or more").default(120),
};

/** The quota settings an operator chooses (the host's `dailyQuota` is the project's, shared equally by the served channels). */
const quotaChoices = {
  /** Units the plugin may spend per Pacific-time day (Google's default per project: 10,000). */
  dailyUnits: number().int("must be a whole number of units").positive("must be greater than 0").default(YOUTUBE_DEFAULT_DAILY_QUOTA),
  /** Expected stream length in hours: chat polling is spread so the budget lasts this long. */
  streamHours: number().positive("must be greater than 0").max(24, "must be at most 24").default(4),
};

/**
 * The YouTube plugin's settings as a host reads them (from `OVATION_YOUTUBE_<KEY>` variables or a
 * config file: every value may arrive as a string, numbers are coerced). See the README's table.
 */
export const youtubeSettingsSchema = z.object({
  /** Removed: is no longer read: every streamer who links YouTube under Connections and switches the bot on is served */
  user: z.never({ error: "is no longer read: every streamer who links YouTube under Connections and switches the bot on is served" }).optional(),
  /** Removed: is no longer read: the streamer links YouTube under Connections (the link keeps its tokens) */
  refreshToken: z.never({ error: "is no longer read: the streamer links YouTube under Connections (the link keeps its tokens)" }).optional(),
  ...googleClient,
  ...hostSettings({ ...youtubeChoices, dailyQuota: quotaChoices.dailyUnits, streamHours: quotaChoices.streamHours }),
});

/** Validated host settings of the YouTube plugin. */
export type YouTubeSettings = z.output<typeof youtubeSettingsSchema>;

/** zod schema of the YouTube plugin's settings ({@link YouTubePluginOptions}): the operator's choices and what the host gives each channel. */
export const youtubePluginOptionsSchema = z.object({
  /** The Ovation channel (user) id whose YouTube channel is served. */
  channelId: z.string().min(1).max(256),
  ...googleClient,
  /**
   * The linked account's tokens: the refresh token is required, the access token is refreshed when
   * absent. Without tokens the plugin registers but its connect fails with the step that fixes it.
   */
  tokens: oauthTokensSchema.optional(),
  ...youtubeChoices,
  quota: z
    .object({
      ...quotaChoices,
      /** Units kept for answers (20 each) and lookups; polling never spends them. */
      reserveUnits: z.number().int().nonnegative().default(1_000),
    })
    .prefault({}),
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
