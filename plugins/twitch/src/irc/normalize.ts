import { createHash } from "node:crypto";
import type { ChatChannel, ChatEvent, ModerationEvent } from "@ovation/core/contracts";
import type { EventSubNotification } from "../eventsub/wire.js";
import { normalizeBadges } from "./badges.js";
import { buildFragments } from "./fragments.js";
import { tag, unescapeTag } from "./irc-message.js";
import type { IrcMessage } from "./irc-message.js";
import { usernoticeNotifications } from "./usernotice.js";

/** What one IRC line means to Ovation. */
export type IrcOutcome =
  | { kind: "chat"; event: ChatEvent }
  | { kind: "moderation"; event: ModerationEvent }
  | { kind: "room"; login: string; roomId: string }
  /**
   * A USERNOTICE: the notifications it stands for (as EventSub notifications, to map and emit while
   * EventSub is not connected) and the chat event it carries (an announcement, or the message
   * attached to a sub or resub), either possibly absent.
   */
  | { kind: "usernotice"; event: ChatEvent | null; notifications: EventSubNotification[] };

/** How the normalizer finds the served channel of an IRC channel name (login without `#`). */
export interface NormalizeContext {
  channel(login: string): ChatChannel | null;
  /** Cheermote prefixes (lowercase) recognized in messages that carry bits. */
  cheerPrefixes: ReadonlySet<string>;
}

const ACTION_PREFIX = "\u0001ACTION ";
/** Twitch timeouts last at most two weeks. */
const MAX_TIMEOUT_SECONDS = 1_209_600;

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

/**
 * The line's `id` tag, or, for lines without one (older captures, `/me` and cheers relayed by some
 * servers), a stable id derived from what identifies the line: room, user, send time, command and
 * text. A replayed line gets the same id, so it is still counted once.
 */
export function lineId(message: IrcMessage): string {
  const id = tag(message, "id");
  if (id !== "") return id;
  const key = [tag(message, "room-id"), tag(message, "user-id") || loginOf(message), tag(message, "tmi-sent-ts"), message.command ?? "", ...message.params].join("\u0000");
  return `irc-${createHash("sha256").update(key).digest("base64url").slice(0, 22)}`;
}

/** Moderators by tag (`mod=1`, `user-type=mod`) get the moderator badge when the line lacks it. */
function withModeratorBadge(message: IrcMessage, badges: ChatEvent["user"]["badges"]): ChatEvent["user"]["badges"] {
  if (tag(message, "mod") !== "1" && tag(message, "user-type") !== "mod") return badges;
  if (badges.some((badge) => badge.type === "moderator")) return badges;
  return [...badges, { type: "moderator", text: "Moderator", id: "moderator/1", count: null }];
}

function chatEvent(message: IrcMessage, channel: ChatChannel, context: NormalizeContext, announcement: boolean): ChatEvent | null {
  const id = lineId(message);
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
  const rewardId = tag(message, "custom-reward-id");
  if (rewardId !== "") platformData = { ...platformData, custom_reward_id: rewardId.slice(0, 128) };
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
      badges: withModeratorBadge(message, normalizeBadges(tag(message, "badges"), tag(message, "badge-info"))),
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

/** USERNOTICE kinds whose attached text (the viewer's own message) is shown in chat. */
const MESSAGE_CARRYING = new Set(["sub", "resub"]);

function usernotice(message: IrcMessage, channel: ChatChannel, context: NormalizeContext): IrcOutcome | null {
  const kind = tag(message, "msg-id");
  if (kind === "announcement") {
    const event = chatEvent(message, channel, context, true);
    return event ? { kind: "usernotice", event, notifications: [] } : null;
  }
  const roomId = tag(message, "room-id") || channel.platform_id;
  const notifications = usernoticeNotifications(message, lineId(message), loginOf(message), roomId);
  const text = message.params[1] ?? "";
  const event = MESSAGE_CARRYING.has(kind) && text.trim() !== "" ? chatEvent(message, channel, context, false) : null;
  if (!event && notifications.length === 0) return null;
  return { kind: "usernotice", event, notifications };
}

/**
 * Turns one parsed IRC message into a chat event (PRIVMSG), a USERNOTICE outcome (announcements,
 * subs, resubs, gifts, raids), a moderation event (CLEARMSG, CLEARCHAT) or a room id (ROOMSTATE).
 * Anything else, or a channel the plugin does not serve, yields null.
 */
export function normalizeIrcMessage(message: IrcMessage, context: NormalizeContext): IrcOutcome | null {
  switch (message.command) {
    case "PRIVMSG": {
      const channel = context.channel(channelLogin(message));
      // `jtv` is Twitch's system account (host notices), not a viewer.
      if (!channel || message.prefix?.startsWith("jtv!")) return null;
      const event = chatEvent(message, channel, context, false);
      return event ? { kind: "chat", event } : null;
    }
    case "USERNOTICE": {
      const channel = context.channel(channelLogin(message));
      return channel ? usernotice(message, channel, context) : null;
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
      if (target === "") return { kind: "moderation", event: { type: "clear-chat", channel, user_platform_id: null } };
      // `ban-duration` present: a timeout of that many seconds; absent: a permanent ban.
      const duration = tag(message, "ban-duration");
      const seconds = /^\d{1,9}$/.test(duration) && Number(duration) > 0 ? Math.min(Number(duration), MAX_TIMEOUT_SECONDS) : null;
      return { kind: "moderation", event: { type: "clear-chat", channel, user_platform_id: target, duration_seconds: seconds } };
    }
    case "ROOMSTATE": {
      const roomId = tag(message, "room-id");
      return roomId === "" ? null : { kind: "room", login: channelLogin(message), roomId };
    }
    default:
      return null;
  }
}
