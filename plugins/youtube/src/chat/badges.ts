import type { ChatBadge } from "@ovation/core/contracts";
import { PERMISSION_LEVELS } from "@ovation/core/plugin-kit";
import type { LiveChatMessage } from "../api/wire.js";

type Author = NonNullable<LiveChatMessage["authorDetails"]>;

/**
 * YouTube's author roles as common badges: the channel owner is `broadcaster`, a moderator
 * `moderator`, a channel member `subscriber` (a membership is YouTube's paid subscription, so
 * `b.type == 'subscriber'` templates work on both platforms), a verified channel `verified`.
 */
export function authorBadges(author: Author): ChatBadge[] {
  const badges: ChatBadge[] = [];
  if (author.isChatOwner) badges.push({ type: "broadcaster", text: "Owner", id: "youtube/owner", count: null });
  if (author.isChatModerator) badges.push({ type: "moderator", text: "Moderator", id: "youtube/moderator", count: null });
  if (author.isChatSponsor) badges.push({ type: "subscriber", text: "Member", id: "youtube/member", count: null });
  if (author.isVerified) badges.push({ type: "verified", text: "Verified", id: "youtube/verified", count: null });
  return badges;
}

/** The permission level of an author's roles (see `PERMISSION_LEVELS`). */
export function authorPermission(author: Author): number {
  if (author.isChatOwner) return PERMISSION_LEVELS.broadcaster;
  if (author.isChatModerator) return PERMISSION_LEVELS.moderator;
  if (author.isChatSponsor) return PERMISSION_LEVELS.subscriber;
  return PERMISSION_LEVELS.everyone;
}

/** The author's highest role as a word (`owner`, `moderator`, `member`, `viewer`). */
export function authorRole(author: Author): string {
  if (author.isChatOwner) return "owner";
  if (author.isChatModerator) return "moderator";
  if (author.isChatSponsor) return "member";
  return "viewer";
}
