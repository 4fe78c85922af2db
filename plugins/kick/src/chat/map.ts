import type { ChatChannel, ChatEvent, ModerationEvent, NotifySub } from "@ovation/core/contracts";
import type { z } from "zod";
import {
  channelFollowedSchema,
  channelSubscriptionGiftsSchema,
  channelSubscriptionSchema,
  chatMessageSentSchema,
  kicksGiftedSchema,
  livestreamMetadataSchema,
  livestreamStatusSchema,
  moderationBannedSchema,
  rewardRedemptionSchema,
} from "../api/wire.js";
import type { KickUser } from "../api/wire.js";
import { kickBadges } from "./badges.js";
import { kickChatEvent } from "./chat-event.js";
import { kickNotification } from "./notification.js";

/** What one Kick event (webhook or chat socket) becomes. */
export type MapOutcome =
  | { kind: "chat"; event: ChatEvent }
  | { kind: "moderation"; event: ModerationEvent }
  | { kind: "alert"; notification: NotifySub }
  | { kind: "ignored"; type: string; reason: string }
  | { kind: "malformed"; type: string; reason: string };

/** Kick has one subscription tier; the catalog's tier key gets Twitch's tier-1 value. */
export const KICK_SUB_TIER = "1000";

/** The name to show for a Kick user (anonymous gifters have none). */
export const displayName = (user: KickUser | undefined): string => (user && !user.is_anonymous && user.username ? user.username : "Anonymous");

interface WebhookEvent {
  type: string;
  version: string;
  messageId: string;
  timestamp: string;
  payload: unknown;
}

type Mapper = (payload: unknown, event: WebhookEvent, channel: ChatChannel) => MapOutcome;

function mapper<S extends z.ZodType>(schema: S, build: (p: z.output<S>, event: WebhookEvent, channel: ChatChannel) => MapOutcome): Mapper {
  return (payload, event, channel) => {
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { kind: "malformed", type: event.type, reason: `${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}` };
    }
    return build(parsed.data, event, channel);
  };
}

const alert = (type: string, event: WebhookEvent, createdAt: string | null | undefined, channel: ChatChannel, params: Record<string, unknown>): MapOutcome => ({
  kind: "alert",
  notification: kickNotification(type, event.messageId, createdAt ?? event.timestamp, channel, params, event.payload),
});

const MAPPERS: Readonly<Record<string, Mapper>> = {
  "chat.message.sent": mapper(chatMessageSentSchema, (m, event, channel) => {
    const created = m.created_at ? Date.parse(m.created_at) : Date.parse(event.timestamp);
    const sender = m.sender;
    return {
      kind: "chat",
      event: kickChatEvent(
        {
          id: m.message_id,
          text: m.content,
          timestamp: Number.isNaN(created) ? Date.now() : created,
          user: {
            id: sender.user_id ?? "",
            username: sender.username ?? "Anonymous",
            avatar: sender.profile_picture ?? null,
            color: sender.identity?.username_color ?? null,
            badges: kickBadges(sender.identity?.badges),
          },
          parent: m.replies_to ? { id: m.replies_to.message_id, message: m.replies_to.content } : null,
          source: "webhook",
        },
        channel,
      ),
    };
  }),
  "channel.followed": mapper(channelFollowedSchema, (p, e, c) => alert("follow", e, null, c, { name: displayName(p.follower) })),
  "channel.subscription.new": mapper(channelSubscriptionSchema, (p, e, c) =>
    alert("subscribe", e, p.created_at, c, { name: displayName(p.subscriber), tier: KICK_SUB_TIER, is_gift: false, months: p.duration }),
  ),
  "channel.subscription.renewal": mapper(channelSubscriptionSchema, (p, e, c) =>
    // Kick's `duration` counts the months subscribed; it tells no streak apart and no message.
    alert("re-subscribe", e, p.created_at, c, { name: displayName(p.subscriber), message: "", emotes: [], tier: KICK_SUB_TIER, months: p.duration, streak: p.duration, duration: 1 }),
  ),
  "channel.subscription.gifts": mapper(channelSubscriptionGiftsSchema, (p, e, c) =>
    alert("gift-subscribe", e, p.created_at, c, {
      gifter: displayName(p.gifter),
      tier: KICK_SUB_TIER,
      amount: p.giftees.length,
      cumulative_amount: 0,
      is_anonymous: p.gifter.is_anonymous === true,
      recipients: p.giftees.map((g) => displayName(g)),
    }),
  ),
  "livestream.status.updated": mapper(livestreamStatusSchema, (p, e, c) =>
    p.is_live ? alert("stream.online", e, p.started_at, c, { title: p.title, started_at: p.started_at ?? e.timestamp }) : alert("stream.offline", e, p.ended_at, c, { title: p.title }),
  ),
  "livestream.metadata.updated": mapper(livestreamMetadataSchema, (p, e, c) =>
    alert("update", e, null, c, {
      title: p.metadata.title,
      language: p.metadata.language ?? "",
      category_id: p.metadata.category?.id ?? "",
      category_name: p.metadata.category?.name ?? "",
      has_mature_content: p.metadata.has_mature_content ?? false,
    }),
  ),
  "moderation.banned": mapper(moderationBannedSchema, (p, e, c) =>
    p.banned_user.user_id ? { kind: "moderation", event: { type: "clear-chat", channel: c, user_platform_id: p.banned_user.user_id } } : { kind: "malformed", type: e.type, reason: "banned_user.user_id: missing" },
  ),
  // Kicks are Kick's own currency, like Twitch's bits: a gift of Kicks is a cheer.
  "kicks.gifted": mapper(kicksGiftedSchema, (p, e, c) =>
    alert("cheer", e, p.created_at, c, { name: displayName(p.sender), amount: p.gift.amount, message: p.gift.message ?? "", is_anonymous: false, gift_name: p.gift.name }),
  ),
  // Only a new (pending) redemption is an alert; accepting or rejecting it later is not.
  "channel.reward.redemption.updated": mapper(rewardRedemptionSchema, (p, e, c) =>
    p.status === "pending"
      ? alert("channel_points.redemption.add", e, p.redeemed_at, c, { name: displayName(p.redeemer), user_input: p.user_input ?? "", reward_title: p.reward.title, reward_cost: p.reward.cost })
      : { kind: "ignored", type: e.type, reason: `redemption ${p.status}` },
  ),
};

/**
 * Maps one verified Kick webhook event of `channel`: chat messages -> chat event, follows and
 * subscriptions -> alert notifications (catalog types and parameters), live status -> stream
 * notifications, bans -> `clear-chat`. Never throws: a bad payload is `malformed`, an unknown
 * type or version `ignored`.
 */
export function mapWebhookEvent(event: WebhookEvent, channel: ChatChannel): MapOutcome {
  const map = MAPPERS[event.type];
  if (!map) return { kind: "ignored", type: event.type, reason: "unknown event type" };
  if (event.version !== "1") return { kind: "ignored", type: event.type, reason: `unknown version ${event.version.slice(0, 16)}` };
  return map(event.payload, event, channel);
}
