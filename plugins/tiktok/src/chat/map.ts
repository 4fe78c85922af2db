import { CHAT_LIMITS } from "@ovation/core/contracts";
import type { ChatBadge, ChatChannel, ChatEvent, ChatFragment } from "@ovation/core/contracts";
import type { TikTokUser, UserIdentity } from "../wire.js";

const cut = (text: string, max: number): string => (text.length > max ? text.slice(0, max) : text);

/** The sender's @handle (displayId) or, failing that, the nickname or numeric id. */
export function userName(user: TikTokUser): string {
  return cut(user.displayId || user.uniqueId || user.nickname || user.id, CHAT_LIMITS.nameLength);
}

/** Badges from TikTok's roles: broadcaster, moderator, subscriber, top gifter, follower. */
export function userBadges(user: TikTokUser, identity: UserIdentity | undefined): ChatBadge[] {
  const badges: ChatBadge[] = [];
  const add = (type: string, text: string): void => void badges.push({ type, text, id: type, count: null });
  if (identity?.isAnchor) add("broadcaster", "Broadcaster");
  if (identity?.isModeratorOfAnchor || user.userAttr?.isAdmin || user.userAttr?.isSuperAdmin) add("moderator", "Moderator");
  if (identity?.isSubscriberOfAnchor || user.isSubscribe) add("subscriber", "Subscriber");
  if (identity?.isGiftGiverOfAnchor) add("top-gifter", "Top gifter");
  if (identity?.isFollowerOfAnchor || user.isFollower) add("follower", "Follower");
  return badges;
}

/** The chat user of a TikTok sender. */
export function chatUser(user: TikTokUser, identity: UserIdentity | undefined): ChatEvent["user"] {
  return {
    platform_id: cut(user.id, CHAT_LIMITS.idLength),
    username: userName(user),
    avatar_url: cut(user.avatarThumb?.urlList?.[0] ?? "", 2048),
    color: null,
    badges: userBadges(user, identity),
  };
}

/**
 * Fragments of a comment: TikTok gives emotes as positions (`index`, in characters of `content`)
 * where an emote image is shown; each becomes an emote fragment between the text pieces.
 */
export function commentFragments(content: string, emotes: readonly { index: number; emote?: { emoteId: string } | undefined }[]): ChatFragment[] {
  const sorted = emotes.filter((e) => e.emote !== undefined).sort((a, b) => a.index - b.index);
  const fragments: ChatFragment[] = [];
  let at = 0;
  for (const { index, emote } of sorted) {
    const pos = Math.min(Math.max(index, at), content.length);
    if (pos > at) fragments.push({ type: "text", text: content.slice(at, pos) });
    fragments.push({ type: "emote", text: `[${emote?.emoteId ?? ""}]`, data: { platform: "tiktok", platform_id: cut(emote?.emoteId ?? "", CHAT_LIMITS.idLength) } });
    at = pos;
  }
  if (at < content.length || fragments.length === 0) fragments.push({ type: "text", text: content.slice(at) });
  return fragments.slice(0, CHAT_LIMITS.fragments);
}

/** A chat event of the TikTok plugin. */
export function tiktokChatEvent(
  id: string,
  timestamp: number,
  channel: ChatChannel,
  user: ChatEvent["user"],
  message: string,
  fragments: ChatFragment[],
  platformData: Record<string, unknown>,
): ChatEvent {
  return {
    id,
    type: "message",
    timestamp,
    platform: "tiktok",
    user,
    channel: { ...channel },
    message: cut(message, CHAT_LIMITS.messageLength),
    fragments,
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
    platform_data: platformData,
  };
}
