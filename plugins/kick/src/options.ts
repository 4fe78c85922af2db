import { z } from "zod";
import { httpUrlSchema, oauthTokensSchema } from "@ovation/core/plugin-kit";
import { KICK_PUSHER_URL } from "./pusher/wire.js";
import { KICK_PUBLIC_KEY_PEM } from "./webhook/signature.js";

const url = httpUrlSchema;

/** zod schema of the Kick plugin's settings ({@link KickPluginOptions}). */
export const kickPluginOptionsSchema = z.object({
  /** The Ovation channel (user) id whose Kick channel is served. */
  channelId: z.string().min(1).max(256),
  /** The Kick app (kick.com -> Settings -> Developer). */
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /**
   * The linked user's tokens (scopes `user:read channel:read chat:write events:subscribe`). The
   * access token is refreshed when absent or about to expire. Without tokens the plugin registers
   * but its connect fails with the step that fixes it.
   */
  tokens: oauthTokensSchema.extend({ scopes: z.array(z.string()).default([]) }).optional(),
  /**
   * How events are read: `webhook` (official: Kick POSTs signed events to the server's public URL)
   * or `pusher` (Kick's chat WebSocket, unofficial, no public URL needed; chat, deletions, bans,
   * subscriptions and gifts only).
   */
  mode: z.enum(["webhook", "pusher"]).default("webhook"),
  /** Subscribe to the webhook events at connect (the app's webhook URL is set on kick.com). */
  subscribe: z.boolean().default(true),
  /** PEM of the key webhooks must be signed with; Kick's published key unless testing. */
  webhookPublicKey: z.string().includes("PUBLIC KEY", { message: "must be a PEM public key" }).default(KICK_PUBLIC_KEY_PEM),
  /** Largest accepted age (either way) of a webhook's timestamp, in seconds. */
  webhookToleranceSeconds: z.number().int().positive().max(3600).default(300),
  /** The channel's chatroom id (pusher mode; see the README for where to find it). */
  chatroomId: z.string().regex(/^\d{1,20}$/, "must be Kick's numeric chatroom id").optional(),
  pusherUrl: z.string().regex(/^wss?:\/\/[^\s]+$/, "must be a ws:// or wss:// URL").default(KICK_PUSHER_URL),
  apiUrl: url.default("https://api.kick.com/public/v1"),
  tokenUrl: url.default("https://id.kick.com/oauth/token"),
  /** Send answers as the user (`user`) or as the app's bot account (`bot`). */
  sendAs: z.enum(["user", "bot"]).default("bot"),
  /** Gap between two chat messages the plugin sends, in ms. */
  sendGapMs: z.number().int().nonnegative().default(1_000),
  /** Answers waiting to be sent at most; more are refused (and logged). */
  sendQueueLimit: z.number().int().positive().default(20),
  /** Refresh the user token this long before it expires. */
  refreshMarginSeconds: z.number().int().nonnegative().default(300),
  /** Backoff of the chat socket's reconnects and of 429 retries without Retry-After. */
  backoffMs: z.object({ min: z.number().int().positive(), max: z.number().int().positive() }).default({ min: 1_000, max: 60_000 }),
}).refine((o) => o.mode !== "pusher" || o.chatroomId !== undefined, { message: "is required in pusher mode", path: ["chatroomId"] });

/** Settings of the Kick plugin (input form: defaults may be left out). */
export type KickPluginOptions = z.input<typeof kickPluginOptionsSchema>;
