import { z } from "zod";
import { hostSettings, httpUrlSchema, oauthTokensSchema } from "@ovation/core/plugin-kit";
import { KICK_PUSHER_URL } from "./pusher/socket-wire.js";
import { KICK_PUBLIC_KEY_PEM } from "./webhook/signature.js";

const url = httpUrlSchema;

/** Default largest age (either way) of a webhook's timestamp, in seconds. */
export const KICK_WEBHOOK_TOLERANCE_SECONDS = 300;
const number = () => z.coerce.number<number>({ error: "must be a number" });

/** The Kick app (kick.com -> Settings -> Developer), required by both views. */
const kickApp = {
  clientId: z.string({ error: "is required when the kick plugin is enabled (the Kick app's client id)" }).min(1),
  clientSecret: z.string({ error: "is required when the kick plugin is enabled (the Kick app's client secret)" }).min(1),
};

/** PEM of the webhook signing key as written in a setting: `\n` may be written as `\\n`. */
const publicKeyText = z.string().transform((pem) => pem.replace(/\\n/g, "\n"));

/**
 * The settings an operator chooses, each declared once with its validation and default: the plugin
 * takes them as options ({@link kickPluginOptionsSchema}), the host reads them without the defaults
 * ({@link kickSettingsSchema}). Values may arrive as strings (numbers are coerced, `subscribe` may be
 * `"true"` or `"false"`).
 */
const kickChoices = {
  /**
   * How events are read: `webhook` (official, default: Kick POSTs signed events to the server's
   * public URL) or `pusher` (Kick's chat WebSocket, unofficial, no public URL needed; chat, deletions,
   * bans, subscriptions and gifts only).
   */
  mode: z.enum(["webhook", "pusher"], { error: "must be webhook or pusher" }).default("webhook"),
  /** Subscribe to the webhook events at connect (`false` when they are managed on kick.com; the app's webhook URL is set there). */
  subscribe: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")], { error: "must be true or false" }).default(true),
  /** PEM of the key webhooks must be signed with (default: Kick's published key). `\n` may be written as `\\n`. */
  webhookPublicKey: publicKeyText.pipe(z.string().includes("PUBLIC KEY", { message: "must be a PEM public key" })).default(KICK_PUBLIC_KEY_PEM),
  /** Largest accepted age (either way) of a webhook's timestamp, in seconds. */
  webhookToleranceSeconds: number().int("must be a whole number of seconds").positive("must be greater than 0").max(3600, "must be at most 3600").default(KICK_WEBHOOK_TOLERANCE_SECONDS),
  /** The channel's chatroom id (pusher mode; see the README for where to find it). */
  chatroomId: z.string().regex(/^\d{1,20}$/, "must be Kick's numeric chatroom id").optional(),
  pusherUrl: z.string().regex(/^wss?:\/\/[^\s]+$/, "must be a ws:// or wss:// URL").default(KICK_PUSHER_URL),
  apiUrl: url.default("https://api.kick.com/public/v1"),
  tokenUrl: url.default("https://id.kick.com/oauth/token"),
  /** Send answers as the user (`user`) or as the app's bot account (`bot`). */
  sendAs: z.enum(["user", "bot"], { error: "must be user or bot" }).default("bot"),
  /** Gap between two chat messages the plugin sends, in ms. */
  sendGapMs: number().int("must be whole milliseconds").nonnegative("must be 0 or more").default(1_000),
};

/**
 * The Kick plugin's settings as a host reads them (from `OVATION_KICK_<KEY>` variables or a config
 * file: every value may arrive as a string, numbers are coerced). See the README's table.
 */
export const kickSettingsSchema = z.object({
  /** Removed: is no longer read: every streamer who links Kick under Connections and switches the bot on is served */
  user: z.never({ error: "is no longer read: every streamer who links Kick under Connections and switches the bot on is served" }).optional(),
  /** Removed: is no longer read: the streamer links Kick under Connections (the link keeps its tokens) */
  refreshToken: z.never({ error: "is no longer read: the streamer links Kick under Connections (the link keeps its tokens)" }).optional(),
  ...kickApp,
  ...hostSettings(kickChoices),
  // The host passes the key's text on; the plugin checks that it is a key.
  webhookPublicKey: publicKeyText.optional(),
});

/** Validated host settings of the Kick plugin. */
export type KickSettings = z.output<typeof kickSettingsSchema>;

/** zod schema of the Kick plugin's settings ({@link KickPluginOptions}): the operator's choices and what the host gives each channel. */
export const kickPluginOptionsSchema = z.object({
  /** The Ovation channel (user) id whose Kick channel is served. */
  channelId: z.string().min(1).max(256),
  /**
   * The broadcaster's Kick user id when the host knows it (the link's): webhooks are matched and
   * answers sent from the start, before the account is read (`/users`, which then confirms it).
   */
  broadcasterUserId: z.string().regex(/^\d{1,20}$/, "must be Kick's numeric user id").optional(),
  ...kickApp,
  /**
   * The linked user's tokens (scopes `user:read channel:read chat:write events:subscribe`). The
   * access token is refreshed when absent or about to expire. Without tokens the plugin registers
   * but its connect fails with the step that fixes it.
   */
  tokens: oauthTokensSchema.extend({ scopes: z.array(z.string()).default([]) }).optional(),
  ...kickChoices,
  /** Answers waiting to be sent at most; more are refused (and logged). */
  sendQueueLimit: z.number().int().positive().default(20),
  /** Refresh the user token this long before it expires. */
  refreshMarginSeconds: z.number().int().nonnegative().default(300),
  /** Backoff of the chat socket's reconnects and of 429 retries without Retry-After. */
  backoffMs: z.object({ min: z.number().int().positive(), max: z.number().int().positive() }).default({ min: 1_000, max: 60_000 }),
}).refine((o) => o.mode !== "pusher" || o.chatroomId !== undefined, { message: "is required in pusher mode", path: ["chatroomId"] });

/** Settings of the Kick plugin (input form: defaults may be left out). */
export type KickPluginOptions = z.input<typeof kickPluginOptionsSchema>;
