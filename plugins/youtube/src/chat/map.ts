import type { ChatChannel, ChatEvent, ModerationEvent, NotificationPayload, NotifySub } from "@ovation/core/contracts";
import { CHAT_LIMITS } from "@ovation/core/contracts";
import { platformNotification } from "@ovation/core/plugin-kit";
import { liveChatMessageSchema } from "../api/wire.js";
import type { LiveChatMessage } from "../api/wire.js";
import { authorBadges, authorPermission, authorRole } from "./badges.js";
import { buildFragments } from "./fragments.js";

/** What one liveChatMessage becomes. */
export type MapOutcome =
  | { kind: "chat"; event: ChatEvent }
  | { kind: "moderation"; event: ModerationEvent }
  | { kind: "alert"; notification: NotifySub; chat: ChatEvent | null }
  | { kind: "ended" }
  | { kind: "ignored"; type: string }
  | { kind: "malformed"; type: string; reason: string };

/** Message types that carry nothing for Ovation (kept out of the "unknown type" count). */
const IGNORED = new Set(["tombstone", "sponsorOnlyModeStartedEvent", "sponsorOnlyModeEndedEvent", "pollEvent", "fanFundingEvent"]);

/** `amountMicros` as a decimal string in currency units: 5000000 -> "5", 1990000 -> "1.99". */
export function microsToAmount(micros: string | number): string {
  const digits = String(micros).replace(/^0+(?=\d)/, "").padStart(7, "0");
  const whole = digits.slice(0, -6).replace(/^0+(?=\d)/, "");
  const fraction = digits.slice(-6).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

/**
 * A NotifySub notification of `channel`: the type's documented payload (`data`; `[]` for stream
 * events) at the top of `event`, the raw YouTube resource in `ovation.platform_data`.
 */
export function youtubeNotification(
  type: string,
  id: string,
  createdAt: string,
  channel: ChatChannel,
  data: NotificationPayload,
  raw: unknown,
): NotifySub {
  return platformNotification({ platform: "youtube", type, id, createdAt, channel, data, raw });
}

const cut = (text: string, max: number): string => (text.length > max ? text.slice(0, max) : text);

function chatEvent(message: LiveChatMessage, channel: ChatChannel, text: string, highlight: boolean, extra: Record<string, unknown>): ChatEvent | null {
  const author = message.authorDetails;
  if (!author) return null;
  const body = cut(text, CHAT_LIMITS.messageLength);
  const published = Date.parse(message.snippet.publishedAt);
  return {
    id: message.id,
    type: "message",
    timestamp: Number.isNaN(published) ? Date.now() : published,
    platform: "youtube",
    user: {
      platform_id: author.channelId,
      username: cut(author.displayName, CHAT_LIMITS.nameLength),
      avatar_url: cut(author.profileImageUrl ?? "", 2048),
      color: null,
      badges: authorBadges(author),
    },
    channel,
    message: body,
    fragments: buildFragments(body).slice(0, CHAT_LIMITS.fragments),
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight },
    platform_data: { type: message.snippet.type, role: authorRole(author), permission_level: authorPermission(author), ...extra },
  };
}

const who = (message: LiveChatMessage): string => message.authorDetails?.displayName ?? "Someone";

/**
 * Maps one raw liveChatMessage (as JSON) of `channel`'s live chat: text -> chat event, deletions and
 * bans -> moderation, Super Chat/Sticker and membership messages -> alert notifications (catalog
 * types and parameters), chat end -> `ended`. Never throws: a bad item is `malformed`.
 */
export function mapLiveChatMessage(raw: unknown, channel: ChatChannel): MapOutcome {
  const parsed = liveChatMessageSchema.safeParse(raw);
  if (!parsed.success) {
    const type = typeof (raw as { snippet?: { type?: unknown } } | null)?.snippet?.type === "string" ? String((raw as { snippet: { type: string } }).snippet.type) : "unknown";
    const issue = parsed.error.issues[0];
    return { kind: "malformed", type, reason: `${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}` };
  }
  const m = parsed.data;
  const s = m.snippet;
  const malformed = (reason: string): MapOutcome => ({ kind: "malformed", type: s.type, reason });
  const alert = (type: string, data: Record<string, unknown>, chat: ChatEvent | null = null): MapOutcome => ({
    kind: "alert",
    notification: youtubeNotification(type, m.id, s.publishedAt, channel, data, raw),
    chat,
  });
  switch (s.type) {
    case "textMessageEvent": {
      const text = s.textMessageDetails?.messageText ?? s.displayMessage;
      if (text === undefined) return malformed("textMessageDetails missing");
      const event = chatEvent(m, channel, text, false, {});
      return event ? { kind: "chat", event } : malformed("authorDetails missing");
    }
    case "messageDeletedEvent": {
      const id = s.messageDeletedDetails?.deletedMessageId;
      return id ? { kind: "moderation", event: { type: "delete-message", channel, id } } : malformed("messageDeletedDetails missing");
    }
    case "userBannedEvent": {
      const banned = s.userBannedDetails?.bannedUserDetails.channelId;
      return banned ? { kind: "moderation", event: { type: "clear-chat", channel, user_platform_id: banned } } : malformed("userBannedDetails missing");
    }
    case "chatEndedEvent":
      return { kind: "ended" };
    case "superChatEvent": {
      const d = s.superChatDetails;
      if (!d) return malformed("superChatDetails missing");
      const amount = microsToAmount(d.amountMicros);
      const message = d.userComment ?? "";
      const money = { amount, currency: d.currency, tier: String(d.tier), amount_display: d.amountDisplayString ?? null };
      const chat = message === "" ? null : chatEvent(m, channel, message, true, { super_chat: money });
      return alert("superchat", { name: who(m), message, tier: String(d.tier), currency: d.currency, amount, amount_micros: String(d.amountMicros) }, chat);
    }
    case "superStickerEvent": {
      const d = s.superStickerDetails;
      if (!d) return malformed("superStickerDetails missing");
      return alert("supersticker", {
        name: who(m),
        sticker: d.superStickerMetadata.stickerId,
        sticker_alt_text: d.superStickerMetadata.altText ?? "",
        tier: String(d.tier),
        currency: d.currency,
        amount: microsToAmount(d.amountMicros),
        amount_micros: String(d.amountMicros),
      });
    }
    case "newSponsorEvent":
      return alert("subscribe", { name: who(m), tier: s.newSponsorDetails?.memberLevelName ?? "", is_gift: false, is_upgrade: s.newSponsorDetails?.isUpgrade ?? false });
    case "giftMembershipReceivedEvent":
      return alert("subscribe", { name: who(m), tier: s.giftMembershipReceivedDetails?.memberLevelName ?? "", is_gift: true, is_upgrade: false });
    case "memberMilestoneChatEvent": {
      const d = s.memberMilestoneChatDetails;
      if (!d) return malformed("memberMilestoneChatDetails missing");
      const message = d.userComment ?? "";
      // YouTube reports total months only: streak and duration are not told apart.
      return alert(
        "re-subscribe",
        { name: who(m), message, emotes: [], tier: d.memberLevelName ?? "", months: d.memberMonth, streak: 0, duration: 1 },
        message === "" ? null : chatEvent(m, channel, message, true, { member_milestone: d.memberMonth }),
      );
    }
    case "membershipGiftingEvent": {
      const d = s.membershipGiftingDetails;
      if (!d) return malformed("membershipGiftingDetails missing");
      // YouTube does not tell the gifter's running total: cumulative_amount repeats this gift.
      return alert("gift-subscribe", {
        gifter: who(m),
        tier: d.giftMembershipsLevelName ?? "",
        amount: d.giftMembershipsCount,
        cumulative_amount: d.giftMembershipsCount,
        is_anonymous: false,
      });
    }
    default:
      return IGNORED.has(s.type) ? { kind: "ignored", type: s.type } : { kind: "malformed", type: s.type, reason: "unknown message type" };
  }
}
