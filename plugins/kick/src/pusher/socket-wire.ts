import { z } from "zod";

// Kick's chat WebSocket is a Pusher channel (protocol 7). This is NOT part of Kick's public API:
// shapes below are what kick.com's own web client receives, and may change without notice.

/** Kick's public Pusher app key and cluster host, as kick.com's web client uses them. */
export const KICK_PUSHER_URL = "wss://ws-us2.pusher.com/app/32cbd69e4b950bf97679";

/** One Pusher frame: `data` is a JSON-encoded string for channel events. */
export const pusherFrameSchema = z.object({
  event: z.string().min(1),
  channel: z.string().optional(),
  data: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
});
/** A Pusher frame. */
export type PusherFrame = z.infer<typeof pusherFrameSchema>;

const id = z.union([z.number().int(), z.string().min(1)]).transform(String);
const badge = z.object({ type: z.string(), text: z.string().nullable().optional(), count: z.number().int().optional() });

/** `App\Events\ChatMessageEvent`. */
export const socketChatMessageSchema = z.object({
  id: z.string().min(1),
  chatroom_id: id,
  content: z.string(),
  type: z.string(),
  created_at: z.string().optional(),
  sender: z.object({
    id: id,
    username: z.string(),
    slug: z.string().optional(),
    identity: z.object({ color: z.string().nullable().optional(), badges: z.array(badge).optional() }).nullable().optional(),
  }),
  metadata: z
    .object({ original_message: z.object({ id: z.string(), content: z.string() }).optional() })
    .nullable()
    .optional(),
});

/** `App\Events\MessageDeletedEvent`. */
export const socketMessageDeletedSchema = z.object({ id: z.string(), message: z.object({ id: z.string() }) });

/** `App\Events\UserBannedEvent` (bans and timeouts). */
export const socketUserBannedSchema = z.object({ id: z.string(), user: z.object({ id: id, username: z.string() }) });

/** `App\Events\SubscriptionEvent`. */
export const socketSubscriptionSchema = z.object({ chatroom_id: id, username: z.string(), months: z.number().int().nonnegative() });

/** `App\Events\GiftedSubscriptionsEvent`. */
export const socketGiftsSchema = z.object({ chatroom_id: id, gifted_usernames: z.array(z.string()), gifter_username: z.string().nullable().optional() });

/** The chat socket's event names. */
export const SOCKET_EVENTS = {
  chat: "App\\Events\\ChatMessageEvent",
  deleted: "App\\Events\\MessageDeletedEvent",
  cleared: "App\\Events\\ChatroomClearEvent",
  banned: "App\\Events\\UserBannedEvent",
  subscription: "App\\Events\\SubscriptionEvent",
  gifts: "App\\Events\\GiftedSubscriptionsEvent",
} as const;
