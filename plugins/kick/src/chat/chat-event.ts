import type { ChatBadge, ChatChannel, ChatEvent } from "@ovation/core/contracts";
import { CHAT_LIMITS } from "@ovation/core/contracts";
// The one non-contract import: the permission level the command runtime would compute, kept in platform_data.
import { permissionLevelOf } from "@ovation/core/plugin-kit";
import { buildFragments } from "./fragments.js";

const cut = (text: string, max: number): string => (text.length > max ? text.slice(0, max) : text);

/** What both read paths know about one chat message. */
export interface KickChatInput {
  id: string;
  text: string;
  timestamp: number;
  user: { id: string; username: string; avatar: string | null; color: string | null; badges: ChatBadge[] };
  parent: { id: string; message: string | null } | null;
  source: "webhook" | "pusher";
}

/** A Kick chat message as Ovation's chat event (one builder for the webhook and the chat socket). */
export function kickChatEvent(input: KickChatInput, channel: ChatChannel): ChatEvent {
  const body = cut(input.text, CHAT_LIMITS.messageLength);
  const user = {
    platform_id: cut(input.user.id, CHAT_LIMITS.idLength),
    username: cut(input.user.username, CHAT_LIMITS.nameLength),
    avatar_url: cut(input.user.avatar ?? "", 2048),
    color: input.user.color && /^#[0-9A-Fa-f]{6}$/.test(input.user.color) ? input.user.color : null,
    badges: input.user.badges,
  };
  const event: ChatEvent = {
    id: cut(input.id, CHAT_LIMITS.idLength),
    type: "message",
    timestamp: input.timestamp,
    platform: "kick",
    user,
    channel,
    message: body,
    fragments: buildFragments(body).slice(0, CHAT_LIMITS.fragments),
    parent: input.parent ? { id: cut(input.parent.id, CHAT_LIMITS.idLength), message: input.parent.message === null ? null : cut(input.parent.message, CHAT_LIMITS.messageLength) } : null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
    platform_data: { source: input.source },
  };
  event.platform_data = { source: input.source, permission_level: permissionLevelOf(event) };
  return event;
}
