import * as z from "zod";

/** Bounds on a chat event at the plugin boundary: generous for real chat, small enough to be safe. */
export const CHAT_LIMITS = {
  messageLength: 10_000,
  fragments: 1_000,
  badges: 100,
  idLength: 256,
  nameLength: 256,
} as const;

const id = z.string().max(CHAT_LIMITS.idLength);
const name = z.string().max(CHAT_LIMITS.nameLength);

/** A chat badge: `count` is the subscription tier or month count where the platform gives one. */
export const chatBadgeSchema = z.object({
  type: name,
  text: z.string().max(CHAT_LIMITS.nameLength).nullable(),
  id: id,
  count: z.number().int().nullable(),
});

/** Emote/cheermote data of a fragment; `emote_set_id`, `bits` and `tier` may be absent on some platforms. */
export const fragmentDataSchema = z.object({
  platform: name,
  platform_id: id,
  emote_set_id: id.optional(),
  bits: z.number().int().nonnegative().optional(),
  tier: z.number().int().nonnegative().optional(),
});

/** A piece of a chat message: plain text, a mention, an emote or a cheermote. */
export const chatFragmentSchema = z.object({
  type: z.enum(["text", "mention", "emote", "cheermote"]),
  text: z.string().max(CHAT_LIMITS.messageLength),
  data: fragmentDataSchema.optional(),
  /** The mentioned user's id, on mention fragments where the platform gives it. */
  id: id.optional(),
});

/** The sender of a chat message. */
export const chatUserSchema = z.object({
  platform_id: id,
  username: name,
  avatar_url: z.string().max(2048),
  color: z.string().max(32).nullable(),
  badges: z.array(chatBadgeSchema).max(CHAT_LIMITS.badges),
});

/** The channel a message was sent in: `id` is the Ovation channel (user) id. */
export const chatChannelSchema = z.object({
  id: id,
  platform_id: id,
  username: name,
  avatar_url: z.string().max(2048),
});

/**
 * The chat event object (docs/chat-event.md): what platform plugins produce from raw chat,
 * the input of the bot runtime and the `event` variable of command templates.
 */
export const chatEventSchema = z.object({
  id: id.min(1),
  type: z.enum(["message", "announcement"]),
  timestamp: z.number().int().nonnegative(),
  platform: name,
  user: chatUserSchema,
  channel: chatChannelSchema,
  message: z.string().max(CHAT_LIMITS.messageLength),
  fragments: z.array(chatFragmentSchema).max(CHAT_LIMITS.fragments),
  parent: z.object({ id: id, message: z.string().max(CHAT_LIMITS.messageLength).nullable() }).nullable(),
  attributes: z.object({
    edited: z.boolean(),
    accent: z.string().max(64).nullable(),
    action: z.boolean(),
    highlight: z.boolean(),
  }),
  /** Platform-specific extras; may be absent. */
  platform_data: z.record(z.string(), z.unknown()).optional(),
});

export type ChatBadge = z.infer<typeof chatBadgeSchema>;
export type ChatFragment = z.infer<typeof chatFragmentSchema>;
export type ChatUser = z.infer<typeof chatUserSchema>;
export type ChatChannel = z.infer<typeof chatChannelSchema>;
export type ChatEvent = z.infer<typeof chatEventSchema>;
