import { z } from "zod";
import { httpUrlSchema } from "@ovation/core/plugin-kit";

const httpUrl = httpUrlSchema.optional();
const number = () => z.coerce.number({ error: "must be a number" });

/**
 * The YouTube plugin's settings as a host reads them (from `OVATION_YOUTUBE_<KEY>` variables or a
 * config file: every value may arrive as a string, numbers are coerced). See the README's table.
 */
export const youtubeSettingsSchema = z.object({
  /** Removed: is no longer read: every streamer who links YouTube under Connections and switches the bot on is served */
  user: z.never({ error: "is no longer read: every streamer who links YouTube under Connections and switches the bot on is served" }).optional(),
  /** Removed: is no longer read: the streamer links YouTube under Connections (the link keeps its tokens) */
  refreshToken: z.never({ error: "is no longer read: the streamer links YouTube under Connections (the link keeps its tokens)" }).optional(),
  /** The Google OAuth client (required). */
  clientId: z.string({ error: "is required when the youtube plugin is enabled (the Google OAuth client id)" }).min(1),
  clientSecret: z.string({ error: "is required when the youtube plugin is enabled (the Google OAuth client secret)" }).min(1),
  apiUrl: httpUrl,
  tokenUrl: httpUrl,
  /** Units the project may spend per Pacific-time day, shared equally by the served channels. */
  dailyQuota: number().int("must be a whole number of units").positive("must be greater than 0").optional(),
  /** Expected stream length in hours. */
  streamHours: number().positive("must be greater than 0").max(24, "must be at most 24").optional(),
  offlinePollSeconds: number().positive("must be greater than 0").optional(),
  /** 0 turns follows off. */
  subscribersPollSeconds: number().nonnegative("must be 0 or more").optional(),
});

/** Validated host settings of the YouTube plugin. */
export type YouTubeSettings = z.output<typeof youtubeSettingsSchema>;
