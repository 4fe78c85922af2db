import type { ChatChannel } from "@ovation/core/contracts";
import type { z } from "zod";
import { kickBadges } from "../chat/badges.js";
import { kickChatEvent } from "../chat/chat-event.js";
import { KICK_SUB_TIER } from "../chat/map.js";
import type { MapOutcome } from "../chat/map.js";
import { kickNotification } from "../chat/notification.js";
import { SOCKET_EVENTS, socketChatMessageSchema, socketGiftsSchema, socketMessageDeletedSchema, socketSubscriptionSchema, socketUserBannedSchema } from "./socket-wire.js";
import type { PusherFrame } from "./socket-wire.js";

/**
 * Kick events that only webhooks deliver: the chat socket has no follower names, Kicks, reward
 * redemptions, live status or title changes (listed in the README and the plugin's status).
 */
export const WEBHOOK_ONLY_EVENTS = ["channel.followed", "kicks.gifted", "channel.reward.redemption.updated", "livestream.status.updated", "livestream.metadata.updated"] as const;

function parse<S extends z.ZodType>(schema: S, frame: PusherFrame): { ok: true; data: z.output<S> } | { ok: false; reason: string } {
  let data: unknown = frame.data;
  if (typeof data === "string") {
    try {
      data = JSON.parse(data);
    } catch {
      return { ok: false, reason: "data is not JSON" };
    }
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: `${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}` };
}

/**
 * Maps one chat-socket frame of `channel`: messages -> chat event, deletions, clears and bans ->
 * moderation, subscriptions and gifts -> alerts (keyed for de-duplication by chatroom, names and
 * minute, since socket events carry no id). Never throws.
 */
export function mapSocketFrame(frame: PusherFrame, channel: ChatChannel, now = Date.now()): MapOutcome {
  const type = frame.event;
  const bad = (reason: string): MapOutcome => ({ kind: "malformed", type, reason });
  switch (type) {
    case SOCKET_EVENTS.chat: {
      const p = parse(socketChatMessageSchema, frame);
      if (!p.ok) return bad(p.reason);
      const m = p.data;
      const created = m.created_at ? Date.parse(m.created_at) : now;
      const original = m.metadata?.original_message;
      return {
        kind: "chat",
        event: kickChatEvent(
          {
            id: m.id,
            text: m.content,
            timestamp: Number.isNaN(created) ? now : created,
            user: { id: m.sender.id, username: m.sender.username, avatar: null, color: m.sender.identity?.color ?? null, badges: kickBadges(m.sender.identity?.badges) },
            parent: m.type === "reply" && original ? { id: original.id, message: original.content } : null,
            source: "pusher",
          },
          channel,
        ),
      };
    }
    case SOCKET_EVENTS.deleted: {
      const p = parse(socketMessageDeletedSchema, frame);
      return p.ok ? { kind: "moderation", event: { type: "delete-message", channel, id: p.data.message.id } } : bad(p.reason);
    }
    case SOCKET_EVENTS.cleared:
      return { kind: "moderation", event: { type: "clear-chat", channel, user_platform_id: null } };
    case SOCKET_EVENTS.banned: {
      const p = parse(socketUserBannedSchema, frame);
      return p.ok ? { kind: "moderation", event: { type: "clear-chat", channel, user_platform_id: p.data.user.id } } : bad(p.reason);
    }
    case SOCKET_EVENTS.subscription: {
      const p = parse(socketSubscriptionSchema, frame);
      if (!p.ok) return bad(p.reason);
      const s = p.data;
      const minute = Math.floor(now / 60_000);
      const id = `pusher-sub-${s.chatroom_id}-${s.username}-${s.months}-${minute}`;
      const createdAt = new Date(now).toISOString();
      return s.months > 1
        ? { kind: "alert", notification: kickNotification("re-subscribe", id, createdAt, channel, { name: s.username, message: "", emotes: [], tier: KICK_SUB_TIER, months: s.months, streak: s.months, duration: 1 }, p.data) }
        : { kind: "alert", notification: kickNotification("subscribe", id, createdAt, channel, { name: s.username, tier: KICK_SUB_TIER, is_gift: false, months: s.months }, p.data) };
    }
    case SOCKET_EVENTS.gifts: {
      const p = parse(socketGiftsSchema, frame);
      if (!p.ok) return bad(p.reason);
      const g = p.data;
      const gifter = g.gifter_username ?? null;
      const id = `pusher-gift-${g.chatroom_id}-${gifter ?? "anon"}-${g.gifted_usernames.join(",").slice(0, 60)}-${Math.floor(now / 60_000)}`;
      return {
        kind: "alert",
        notification: kickNotification(
          "gift-subscribe",
          id,
          new Date(now).toISOString(),
          channel,
          { gifter: gifter ?? "Anonymous", tier: KICK_SUB_TIER, amount: g.gifted_usernames.length, cumulative_amount: 0, is_anonymous: gifter === null, recipients: g.gifted_usernames },
          p.data,
        ),
      };
    }
    default:
      return { kind: "ignored", type, reason: "not mapped" };
  }
}
