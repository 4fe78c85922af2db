import type { EventSubNotification } from "../eventsub/wire.js";
import { tag, unescapeTag } from "./irc-message.js";
import type { IrcMessage } from "./irc-message.js";

/**
 * USERNOTICE lines (sub, resub, subgift, submysterygift, raid) rewritten as the EventSub
 * notifications Twitch would send for the same moment, so they go through the very mapping the
 * EventSub path uses (`mapEventSubNotification`) and produce the same notifications. Used only
 * while EventSub is not connected; the plugin drops them when it is, so nothing is counted twice.
 */

/** `msg-param-sub-plan` as an EventSub tier: `Prime` subs are tier 1000 there. */
function tierOf(plan: string): string {
  return plan === "2000" || plan === "3000" ? plan : "1000";
}

function count(value: string): number {
  return /^\d{1,9}$/.test(value) ? Number(value) : 0;
}

/** The `emotes` tag (`25:0-4,12-16/1902:6-10`) as EventSub's `[{begin, end, id}]`. */
export function emoteRanges(emotesTag: string): Array<{ begin: number; end: number; id: string }> {
  const out: Array<{ begin: number; end: number; id: string }> = [];
  if (emotesTag === "") return out;
  for (const group of emotesTag.split("/")) {
    const colon = group.indexOf(":");
    if (colon <= 0) continue;
    const id = group.slice(0, colon);
    for (const range of group.slice(colon + 1).split(",")) {
      const match = /^(\d{1,6})-(\d{1,6})$/.exec(range);
      if (match && out.length < 200) out.push({ begin: Number(match[1]), end: Number(match[2]), id });
    }
  }
  return out;
}

function user(message: IrcMessage, login: string): Record<string, unknown> {
  const display = unescapeTag(tag(message, "display-name"));
  return { user_id: tag(message, "user-id"), user_login: login, user_name: display !== "" ? display : login };
}

function notification(message: IrcMessage, id: string, type: string, event: Record<string, unknown>): EventSubNotification {
  const sent = Number(tag(message, "tmi-sent-ts"));
  const time = Number.isSafeInteger(sent) && sent > 0 ? new Date(sent) : new Date();
  return {
    messageId: `irc-${id}-${type}`.slice(0, 128),
    timestamp: time.toISOString(),
    subscription: { id: `irc-${type}`, status: "enabled", type, version: "1", condition: {} },
    event: { ...event, source: "irc" },
  };
}

/**
 * The EventSub notifications one USERNOTICE stands for (none for other kinds). `id` is the line's
 * id (or the id derived for it), `login` the user's login, `roomId` the channel's user id.
 */
export function usernoticeNotifications(message: IrcMessage, id: string, login: string, roomId: string): EventSubNotification[] {
  const kind = tag(message, "msg-id");
  const broadcaster = { broadcaster_user_id: roomId };
  const plan = tierOf(tag(message, "msg-param-sub-plan"));
  switch (kind) {
    case "sub":
      return [notification(message, id, "channel.subscribe", { ...broadcaster, ...user(message, login), tier: plan, is_gift: false })];
    case "resub": {
      const shareStreak = tag(message, "msg-param-should-share-streak") === "1";
      const duration = count(tag(message, "msg-param-multimonth-duration"));
      return [
        notification(message, id, "channel.subscription.message", {
          ...broadcaster,
          ...user(message, login),
          tier: plan,
          message: { text: message.params[1] ?? "", emotes: emoteRanges(tag(message, "emotes")) },
          cumulative_months: count(tag(message, "msg-param-cumulative-months")),
          streak_months: shareStreak ? count(tag(message, "msg-param-streak-months")) : null,
          duration_months: duration > 0 ? duration : 1,
        }),
      ];
    }
    case "subgift":
    case "anonsubgift": {
      const anonymous = kind === "anonsubgift" || login === "ananonymousgifter";
      const recipientLogin = tag(message, "msg-param-recipient-user-name");
      const recipientName = unescapeTag(tag(message, "msg-param-recipient-display-name"));
      const out = [
        notification(message, id, "channel.subscribe", {
          ...broadcaster,
          user_id: tag(message, "msg-param-recipient-id"),
          user_login: recipientLogin,
          user_name: recipientName !== "" ? recipientName : recipientLogin,
          tier: plan,
          is_gift: true,
        }),
      ];
      // A gift that is part of a bundle was announced by its submysterygift line.
      if (tag(message, "msg-param-community-gift-id") === "") out.unshift(gift(message, id, login, roomId, plan, 1, anonymous));
      return out;
    }
    case "submysterygift":
    case "anonsubmysterygift": {
      const anonymous = kind === "anonsubmysterygift" || login === "ananonymousgifter";
      return [gift(message, id, login, roomId, plan, count(tag(message, "msg-param-mass-gift-count")), anonymous)];
    }
    case "raid":
      return [
        notification(message, id, "channel.raid", {
          from_broadcaster_user_id: tag(message, "user-id"),
          from_broadcaster_user_login: tag(message, "msg-param-login") || login,
          from_broadcaster_user_name: unescapeTag(tag(message, "msg-param-displayName")) || login,
          to_broadcaster_user_id: roomId,
          viewers: count(tag(message, "msg-param-viewerCount")),
        }),
      ];
    default:
      return [];
  }
}

function gift(message: IrcMessage, id: string, login: string, roomId: string, tier: string, total: number, anonymous: boolean): EventSubNotification {
  const cumulative = count(tag(message, "msg-param-sender-count"));
  return notification(message, id, "channel.subscription.gift", {
    broadcaster_user_id: roomId,
    ...(anonymous ? { user_id: null, user_login: null, user_name: null } : user(message, login)),
    total,
    tier,
    cumulative_total: anonymous || cumulative === 0 ? null : cumulative,
    is_anonymous: anonymous,
  });
}
