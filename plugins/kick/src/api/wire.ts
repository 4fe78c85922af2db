import { z } from "zod";

// Raw shapes of Kick's public API (https://docs.kick.com): webhook payloads, OAuth token answers and
// the API's `{data, message}` envelopes. Mapping to Ovation's shapes happens in chat/map.ts.

const id = z.union([z.number().int(), z.string().min(1)]).transform(String);
const nullableStr = z.string().nullable().optional();

/** A user as webhooks carry it (`sender`, `follower`, `subscriber`, `gifter`, ...). */
export const kickUserSchema = z.object({
  is_anonymous: z.boolean().optional(),
  user_id: id.nullable().optional(),
  username: nullableStr,
  is_verified: z.boolean().nullable().optional(),
  profile_picture: nullableStr,
  channel_slug: nullableStr,
  identity: z
    .object({
      username_color: nullableStr,
      badges: z.array(z.object({ text: z.string(), type: z.string(), count: z.number().int().optional() })).optional(),
    })
    .nullable()
    .optional(),
});
/** A webhook user. */
export type KickUser = z.infer<typeof kickUserSchema>;

const emote = z.object({ emote_id: id, positions: z.array(z.object({ s: z.number().int(), e: z.number().int() })) });

/** `chat.message.sent` v1. */
export const chatMessageSentSchema = z.object({
  message_id: z.string().min(1),
  replies_to: z.object({ message_id: z.string(), content: z.string(), sender: kickUserSchema.optional() }).nullable().optional(),
  broadcaster: kickUserSchema,
  sender: kickUserSchema,
  content: z.string(),
  emotes: z.array(emote).nullable().optional(),
  created_at: z.string().optional(),
});
/** A webhook chat message. */
export type ChatMessageSent = z.infer<typeof chatMessageSentSchema>;

/** `channel.followed` v1. */
export const channelFollowedSchema = z.object({ broadcaster: kickUserSchema, follower: kickUserSchema });

/** `channel.subscription.new` and `channel.subscription.renewal` v1 (`duration` in months). */
export const channelSubscriptionSchema = z.object({
  broadcaster: kickUserSchema,
  subscriber: kickUserSchema,
  duration: z.number().int().nonnegative(),
  created_at: z.string().optional(),
  expires_at: z.string().optional(),
});

/** `channel.subscription.gifts` v1 (the gifter's fields are null when anonymous). */
export const channelSubscriptionGiftsSchema = z.object({
  broadcaster: kickUserSchema,
  gifter: kickUserSchema,
  giftees: z.array(kickUserSchema),
  created_at: z.string().optional(),
  expires_at: z.string().optional(),
});

/** `livestream.status.updated` v1. */
export const livestreamStatusSchema = z.object({
  broadcaster: kickUserSchema,
  is_live: z.boolean(),
  title: z.string(),
  started_at: z.string().nullable().optional(),
  ended_at: z.string().nullable().optional(),
});

/** `livestream.metadata.updated` v1. */
export const livestreamMetadataSchema = z.object({
  broadcaster: kickUserSchema,
  metadata: z.object({
    title: z.string(),
    language: z.string().optional(),
    has_mature_content: z.boolean().optional(),
    category: z.object({ id: id, name: z.string(), thumbnail: z.string().optional() }).nullable().optional(),
  }),
});

/** `moderation.banned` v1 (`expires_at` null for a permanent ban). */
export const moderationBannedSchema = z.object({
  broadcaster: kickUserSchema,
  moderator: kickUserSchema,
  banned_user: kickUserSchema,
  metadata: z.object({ reason: z.string().nullable().optional(), created_at: z.string().optional(), expires_at: z.string().nullable().optional() }),
});

/** `kicks.gifted` v1 (Kicks are Kick's own currency). */
export const kicksGiftedSchema = z.object({
  broadcaster: kickUserSchema,
  sender: kickUserSchema,
  gift: z.object({
    amount: z.number().int().nonnegative(),
    name: z.string(),
    type: z.string().optional(),
    tier: z.string().optional(),
    message: z.string().nullable().optional(),
    pinned_time_seconds: z.number().optional(),
  }),
  created_at: z.string().optional(),
});

/** `channel.reward.redemption.updated` v1. */
export const rewardRedemptionSchema = z.object({
  id: z.string(),
  user_input: z.string().nullable().optional(),
  status: z.enum(["pending", "accepted", "rejected"]),
  redeemed_at: z.string().optional(),
  reward: z.object({ id: z.string(), title: z.string(), cost: z.number(), description: z.string().optional() }),
  redeemer: kickUserSchema,
  broadcaster: kickUserSchema,
});

/** Every webhook event the plugin subscribes to, with its version. */
export const KICK_EVENTS = [
  "chat.message.sent",
  "channel.followed",
  "channel.subscription.new",
  "channel.subscription.renewal",
  "channel.subscription.gifts",
  "livestream.status.updated",
  "livestream.metadata.updated",
  "moderation.banned",
  "kicks.gifted",
  "channel.reward.redemption.updated",
] as const;
/** One of {@link KICK_EVENTS}. */
export type KickEventName = (typeof KICK_EVENTS)[number];

/** POST id.kick.com/oauth/token answer (`expires_in` in seconds; Kick has sent it as a string). */
export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.coerce.number().nonnegative(),
  scope: z.string().optional(),
});

/** GET /public/v1/users entry. */
export const apiUserSchema = z.object({ user_id: id, name: z.string(), email: z.string().optional(), profile_picture: z.string().optional() });

/** POST /public/v1/chat answer. */
export const chatSentSchema = z.object({ is_sent: z.boolean(), message_id: z.string().optional() });

/** POST /public/v1/events/subscriptions answer entry. */
export const subscribedSchema = z.object({ name: z.string(), version: z.number().int(), subscription_id: z.string().optional(), error: z.string().optional() });

/** GET /public/v1/public-key answer. */
export const publicKeySchema = z.object({ public_key: z.string().min(1) });

/** The `{data, message}` envelope of every public API answer. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data, message: z.string().optional() });
