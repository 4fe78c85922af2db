import type { ChatChannel } from "@ovation/core";
import { describe, expect, it } from "vitest";
import { mapEventSubNotification } from "../eventsub/map.js";
import { GLOBAL_CHEERMOTE_PREFIXES } from "../irc/fragments.js";
import { parseIrcLine } from "../irc/irc-message.js";
import { normalizeIrcMessage } from "../irc/normalize.js";
import { ircLine } from "./fixtures.js";

const dallas: ChatChannel = { id: "owner-1", platform_id: "12345678", username: "dallas", avatar_url: "" };
const context = { channel: (login: string) => (login === "dallas" ? dallas : null), cheerPrefixes: new Set(GLOBAL_CHEERMOTE_PREFIXES) };

/** The notifications (mapped as the EventSub path maps them) and chat event of a USERNOTICE fixture. */
function usernotice(name: string) {
  const outcome = normalizeIrcMessage(parseIrcLine(ircLine(name))!, context);
  if (outcome?.kind !== "usernotice") throw new Error(`${name} is not a USERNOTICE outcome`);
  const notifications = outcome.notifications.flatMap((n) => {
    const mapped = mapEventSubNotification(n);
    if (!mapped.ok) throw new Error(mapped.reason);
    return mapped.notifications;
  });
  return { event: outcome.event, notifications };
}

describe("USERNOTICE as notifications (while EventSub is not connected)", () => {
  it("maps a resub to re-subscribe and sends its message to chat", () => {
    const { event, notifications } = usernotice("resub-usernotice");
    expect(notifications.map((n) => [n.subscription.type, n.subscription.condition, n.event])).toEqual([
      [
        "re-subscribe",
        { platform: "twitch", platform_id: "12345678" },
        { name: "ronni", tier: "1000", months: 6, streak: 2, duration: 1, message: "Great stream -- keep it up!", emotes: [] },
      ],
    ]);
    expect(notifications[0]?.notification.id).toBe("irc-db25007f-7a18-43eb-9379-80131e44d633-channel.subscription.message");
    expect(event).toMatchObject({ id: "db25007f-7a18-43eb-9379-80131e44d633", type: "message", message: "Great stream -- keep it up!" });
  });

  it("maps a bundle of gifts once (submysterygift), each recipient as a gifted subscribe", () => {
    expect(usernotice("submysterygift").notifications.map((n) => [n.subscription.type, n.event])).toEqual([
      ["gift-subscribe", { gifter: "GiftGiver", tier: "1000", amount: 3, cumulative_amount: 40, is_anonymous: false }],
    ]);
    expect(usernotice("subgift-in-bundle").notifications.map((n) => [n.subscription.type, n.event])).toEqual([
      ["subscribe", { name: "Lucky", tier: "1000", is_gift: true }],
    ]);
    expect(usernotice("subgift").notifications.map((n) => [n.subscription.type, n.event])).toEqual([
      ["gift-subscribe", { gifter: "Solo", tier: "2000", amount: 1, cumulative_amount: 0, is_anonymous: false }],
      ["subscribe", { name: "Friend", tier: "2000", is_gift: true }],
    ]);
    expect(usernotice("subgift").event).toBeNull();
  });

  it("keeps announcements as chat events of type announcement, with no notification", () => {
    const { event, notifications } = usernotice("announcement");
    expect(notifications).toEqual([]);
    expect(event).toMatchObject({ type: "announcement", message: "Hello chat, new video is up!" });
  });
});
