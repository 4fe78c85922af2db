import type { ChatChannel, ChatEvent, ModerationEvent, NotifySub } from "@ovation/core/contracts";
import type { z } from "zod";
import { chatUser, commentFragments, tiktokChatEvent, userName } from "./chat/map.js";
import { tiktokNotification } from "./notification.js";
import {
  chatMessageSchema,
  controlMessageSchema,
  emoteChatMessageSchema,
  giftMessageSchema,
  imDeleteMessageSchema,
  likeMessageSchema,
  socialMessageSchema,
  subNotifyMessageSchema,
} from "./wire.js";
import type { TikTokGiftMessage } from "./wire.js";

/** What one decoded TikTok message becomes. */
export type TikTokOutcome =
  | { kind: "chat"; id: string; event: ChatEvent }
  | { kind: "notification"; id: string; notification: NotifySub }
  | { kind: "likes"; id: string; count: number; userId: string; name: string; total: number | null; raw: unknown }
  | { kind: "moderation"; id: string; events: ModerationEvent[] }
  | { kind: "streaking"; id: string }
  | { kind: "ended"; id: string }
  | { kind: "ignored"; method: string }
  | { kind: "malformed"; method: string; reason: string };

/** TikTok's gift `type` 1: a streakable gift, sent as repeats until `repeatEnd` is 1. */
const STREAKABLE = 1;
/** ControlAction: 3 stream ended, 4 suspended. */
const STREAM_ENDED = new Set([3, 4]);

const time = (createTime: string | undefined): number => {
  const ms = Number(createTime);
  return Number.isFinite(ms) && ms > 0 ? ms : Date.now();
};

function parse<S extends z.ZodType>(schema: S, method: string, data: unknown): { ok: true; value: z.output<S> } | { ok: false; outcome: TikTokOutcome } {
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, outcome: { kind: "malformed", method, reason: `${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}` } };
}

/**
 * The donation-shaped payload of a finished gift: `amount` is the diamond value of the whole
 * count (diamonds per gift x count), in `currency` "TikTok diamonds".
 */
export function giftPayload(gift: TikTokGiftMessage, count: number): Record<string, unknown> {
  return {
    name: userName(gift.user),
    gift_name: gift.gift.name,
    gift_id: gift.giftId,
    count,
    diamonds: gift.gift.diamondCount,
    amount: String(gift.gift.diamondCount * count),
    currency: "TikTok diamonds",
    message: "",
  };
}

/**
 * Maps one decoded TikTok message (`method` is the protobuf type name, as tiktok-live-connector's
 * `decodedData` event gives it) to what the plugin emits. Pure: streak and like state lives in the
 * plugin. A streak step that is not the last one is `streaking` (never an alert).
 */
export function mapTikTokMessage(method: string, data: unknown, channel: ChatChannel): TikTokOutcome {
  switch (method) {
    case "WebcastChatMessage": {
      const r = parse(chatMessageSchema, method, data);
      if (!r.ok) return r.outcome;
      const m = r.value;
      const id = `tiktok-${m.common.msgId}`;
      const fragments = commentFragments(m.content, m.emotes);
      return { kind: "chat", id, event: tiktokChatEvent(id, time(m.common.createTime), channel, chatUser(m.user, m.userIdentity), m.content, fragments, { follows: m.userIdentity?.isFollowerOfAnchor ?? m.user.isFollower ?? false }) };
    }
    case "WebcastEmoteChatMessage": {
      const r = parse(emoteChatMessageSchema, method, data);
      if (!r.ok) return r.outcome;
      const m = r.value;
      const id = `tiktok-${m.common.msgId}`;
      const fragments = m.emoteList.map((e) => ({ type: "emote" as const, text: `[${e.emoteId}]`, data: { platform: "tiktok", platform_id: e.emoteId } }));
      const text = fragments.map((f) => f.text).join(" ");
      return { kind: "chat", id, event: tiktokChatEvent(id, time(m.common.createTime), channel, chatUser(m.user, m.userIdentity), text, fragments, { sticker: true }) };
    }
    case "WebcastGiftMessage": {
      const r = parse(giftMessageSchema, method, data);
      if (!r.ok) return r.outcome;
      const g = r.value;
      const id = `tiktok-gift-${g.common.msgId}`;
      if (g.gift.type === STREAKABLE && g.repeatEnd !== 1) return { kind: "streaking", id };
      const count = Math.max(1, g.repeatCount);
      // One alert per streak: keyed by sender, gift and TikTok's group id, so a redelivered end is dropped.
      const alertId = g.gift.type === STREAKABLE && g.groupId !== "" ? `tiktok-gift-${g.user.id}-${g.giftId}-${g.groupId}` : id;
      return { kind: "notification", id: alertId, notification: tiktokNotification("donation", alertId, time(g.common.createTime), channel, giftPayload(g, count), data) };
    }
    case "WebcastSocialMessage": {
      const r = parse(socialMessageSchema, method, data);
      if (!r.ok) return r.outcome;
      const s = r.value;
      const key = s.common.displayText?.key ?? "";
      const id = `tiktok-${s.common.msgId}`;
      const name = userName(s.user);
      if (key.includes("follow")) return { kind: "notification", id, notification: tiktokNotification("follow", id, time(s.common.createTime), channel, { name }, data) };
      if (key.includes("share")) return { kind: "notification", id, notification: tiktokNotification("tiktok.share", id, time(s.common.createTime), channel, { name, target: s.shareTarget ?? "" }, data) };
      return { kind: "ignored", method };
    }
    case "WebcastSubNotifyMessage": {
      const r = parse(subNotifyMessageSchema, method, data);
      if (!r.ok) return r.outcome;
      const s = r.value;
      const id = `tiktok-${s.common.msgId}`;
      return { kind: "notification", id, notification: tiktokNotification("subscribe", id, time(s.common.createTime), channel, { name: userName(s.user), tier: "1000", is_gift: false }, data) };
    }
    case "WebcastLikeMessage": {
      const r = parse(likeMessageSchema, method, data);
      if (!r.ok) return r.outcome;
      const l = r.value;
      const total = Number(l.total);
      return { kind: "likes", id: `tiktok-${l.common.msgId}`, count: l.count, userId: l.user.id, name: userName(l.user), total: Number.isFinite(total) && l.total !== undefined ? total : null, raw: data };
    }
    case "WebcastImDeleteMessage": {
      const r = parse(imDeleteMessageSchema, method, data);
      if (!r.ok) return r.outcome;
      const events: ModerationEvent[] = [
        ...r.value.deleteMsgIds.map((id): ModerationEvent => ({ type: "delete-message", channel: { ...channel }, id: `tiktok-${id}` })),
        ...r.value.deleteUserIds.map((user): ModerationEvent => ({ type: "clear-chat", channel: { ...channel }, user_platform_id: user })),
      ];
      return { kind: "moderation", id: `tiktok-${r.value.common.msgId}`, events };
    }
    case "WebcastControlMessage": {
      const r = parse(controlMessageSchema, method, data);
      if (!r.ok) return r.outcome;
      return STREAM_ENDED.has(r.value.action) ? { kind: "ended", id: `tiktok-${r.value.common.msgId}` } : { kind: "ignored", method };
    }
    default:
      return { kind: "ignored", method };
  }
}
