import type { ChatChannel, ChatEvent, ModerationEvent } from "@ovation/core/contracts";
import { normalizeBadges } from "./badges.js";
import { buildFragments } from "./fragments.js";
import { tag, unescapeTag } from "./irc-message.js";
import type { IrcMessage } from "./irc-message.js";

/** What one IRC line means to Ovation. */
export type IrcOutcome =
  | { kind: "chat"; event: ChatEvent }
  | { kind: "moderation"; event: ModerationEvent }
  | { kind: "room"; login: string; roomId: string };

/** How the normalizer finds the served channel of an IRC channel name (login without `#`). */
export interface NormalizeContext {
  channel(login: string): ChatChannel | null;
  /** Cheermote prefixes (lowercase) recognized in messages that carry bits. */
  cheerPrefixes: ReadonlySet<string>;
}

const ACTION_PREFIX = "\u0001ACTION ";

/** Announcement colours (`msg-param-color`) as the chat event's `accent`. */
function accentOf(color: string): string | null {
  return color === "" ? null : color.toLowerCase().slice(0, 64);
}

function channelLogin(message: IrcMessage): string {
  const target = message.params[0] ?? "";
  return target.charCodeAt(0) === 35 ? target.slice(1) : target;
}

function loginOf(message: IrcMessage): string {
  const login = tag(message, "login");
  if (login !== "") return login;
  const prefix = message.prefix ?? "";
  const bang = prefix.indexOf("!");
  return bang > 0 ? prefix.slice(0, bang) : "";
}

function chatEvent(message: IrcMessage, channel: ChatChannel, context: NormalizeContext, announcement: boolean): ChatEvent | null {
  const id = tag(message, "id");
  if (id === "") return null;
  let text = message.params[1] ?? "";
  let action = false;
  if (text.startsWith(ACTION_PREFIX)) {
    action = true;
    text = text.slice(ACTION_PREFIX.length, text.endsWith("\u0001") ? -1 : undefined);
  }
  const bitsTag = tag(message, "bits");
  const bits = bitsTag !== "" && /^\d{1,9}$/.test(bitsTag) ? Number(bitsTag) : 0;
  const login = loginOf(message);
  const displayName = unescapeTag(tag(message, "display-name"));
  const color = tag(message, "color");
  const sent = Number(tag(message, "tmi-sent-ts"));
  const parentId = tag(message, "reply-parent-msg-id");
  const msgId = tag(message, "msg-id");
  // platform_data only when it says something the event does not: it costs a record check downstream.
  let platformData: Record<string, unknown> | undefined;
  if (displayName.toLowerCase() !== login) platformData = { login };
  if (bits > 0) platformData = { ...platformData, bits };
  if (msgId !== "") platformData = { ...platformData, msg_id: msgId };
  if (tag(message, "first-msg") === "1") platformData = { ...platformData, first_message: true };
  const event: ChatEvent = {
    id,
    type: announcement ? "announcement" : "message",
    timestamp: Number.isSafeInteger(sent) && sent >= 0 ? sent : Date.now(),
    platform: "twitch",
    user: {
      platform_id: tag(message, "user-id"),
      username: displayName !== "" ? displayName : login,
      avatar_url: "",
      color: color === "" ? null : color,
      badges: normalizeBadges(tag(message, "badges"), tag(message, "badge-info")),
    },
    channel,
    message: text,
    fragments: buildFragments(text, tag(message, "emotes"), bits > 0 ? context.cheerPrefixes : null),
    parent: parentId === "" ? null : { id: parentId, message: message.tags["reply-parent-msg-body"] === undefined ? null : unescapeTag(tag(message, "reply-parent-msg-body")) },
    attributes: {
      edited: false,
      accent: announcement ? accentOf(tag(message, "msg-param-color")) : null,
      action,
      highlight: msgId === "highlighted-message",
    },
  };
  if (platformData) event.platform_data = platformData;
  return event;
}

/**
 * Turns one parsed IRC message into a chat event (PRIVMSG, USERNOTICE announcement), a moderation
 * event (CLEARMSG, CLEARCHAT) or a room id (ROOMSTATE). Anything else, or a channel the plugin does
 * not serve, yields null. Other USERNOTICEs (subs, raids...) arrive as EventSub notifications.
 */
export function normalizeIrcMessage(message: IrcMessage, context: NormalizeContext): IrcOutcome | null {
  switch (message.command) {
    case "PRIVMSG": {
      const channel = context.channel(channelLogin(message));
      if (!channel) return null;
      const event = chatEvent(message, channel, context, false);
      return event ? { kind: "chat", event } : null;
    }
    case "USERNOTICE": {
      if (tag(message, "msg-id") !== "announcement") return null;
      const channel = context.channel(channelLogin(message));
      if (!channel) return null;
      const event = chatEvent(message, channel, context, true);
      return event ? { kind: "chat", event } : null;
    }
    case "CLEARMSG": {
      const channel = context.channel(channelLogin(message));
      const id = tag(message, "target-msg-id");
      if (!channel || id === "") return null;
      return { kind: "moderation", event: { type: "delete-message", channel, id } };
    }
    case "CLEARCHAT": {
      const channel = context.channel(channelLogin(message));
      if (!channel) return null;
      const target = tag(message, "target-user-id");
      return { kind: "moderation", event: { type: "clear-chat", channel, user_platform_id: target === "" ? null : target } };
    }
    case "ROOMSTATE": {
      const roomId = tag(message, "room-id");
      return roomId === "" ? null : { kind: "room", login: channelLogin(message), roomId };
    }
    default:
      return null;
  }
}
