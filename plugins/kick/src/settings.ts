import { z } from "zod";
import { httpUrlSchema } from "@ovation/core/plugin-kit";

const httpUrl = httpUrlSchema.optional();
const number = () => z.coerce.number({ error: "must be a number" });

/**
 * The Kick plugin's settings as a host reads them (from `OVATION_KICK_<KEY>` variables or a config
 * file: every value may arrive as a string, numbers are coerced). See the README's table.
 */
export const kickSettingsSchema = z.object({
  /** Removed: is no longer read: every streamer who links Kick under Connections and switches the bot on is served */
  user: z.never({ error: "is no longer read: every streamer who links Kick under Connections and switches the bot on is served" }).optional(),
  /** Removed: is no longer read: the streamer links Kick under Connections (the link keeps its tokens) */
  refreshToken: z.never({ error: "is no longer read: the streamer links Kick under Connections (the link keeps its tokens)" }).optional(),
  /** The Kick app (required). */
  clientId: z.string({ error: "is required when the kick plugin is enabled (the Kick app's client id)" }).min(1),
  clientSecret: z.string({ error: "is required when the kick plugin is enabled (the Kick app's client secret)" }).min(1),
  /** `webhook` (default, needs a public URL) or `pusher` (unofficial chat socket). */
  mode: z.enum(["webhook", "pusher"], { error: "must be webhook or pusher" }).optional(),
  /** PEM of the webhook signing key (default: Kick's published key). `\n` may be written as `\\n`. */
  webhookPublicKey: z.string().transform((pem) => pem.replace(/\\n/g, "\n")).optional(),
  webhookToleranceSeconds: number().int("must be a whole number of seconds").positive("must be greater than 0").max(3600, "must be at most 3600").optional(),
  /** Subscribe to webhook events at connect (`false` when they are managed on kick.com). */
  subscribe: z.enum(["true", "false"], { error: "must be true or false" }).transform((v) => v === "true").optional(),
  /** The chatroom id (pusher mode). */
  chatroomId: z.string().regex(/^\d{1,20}$/, "must be Kick's numeric chatroom id").optional(),
  pusherUrl: z.string().regex(/^wss?:\/\/[^\s]+$/, "must be a ws:// or wss:// URL").optional(),
  apiUrl: httpUrl,
  tokenUrl: httpUrl,
  sendAs: z.enum(["user", "bot"], { error: "must be user or bot" }).optional(),
  sendGapMs: number().int("must be whole milliseconds").nonnegative("must be 0 or more").optional(),
});

/** Validated host settings of the Kick plugin. */
export type KickSettings = z.output<typeof kickSettingsSchema>;
