import { chatEventSchema, notifySubSchema, permissionLevelOf, PERMISSION_LEVELS } from "@ovation/core";
import type { ChatChannel } from "@ovation/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mapLiveChatMessage, microsToAmount } from "../chat/map.js";
import { buildFragments } from "../chat/fragments.js";
import { chatFixtures, chatMessage } from "../testing/index.js";

const channel: ChatChannel = { id: "1", platform_id: "UCowner00000000000000000", username: "FunStreamer", avatar_url: "" };

function alertOf(name: string) {
  const outcome = mapLiveChatMessage(chatMessage(name), channel);
  if (outcome.kind !== "alert") throw new Error(`${name} mapped to ${outcome.kind}`);
  expect(notifySubSchema.safeParse(outcome.notification).success).toBe(true);
  expect(outcome.notification.subscription.condition).toEqual({ platform: "youtube", platform_id: channel.platform_id });
  return outcome;
}

describe("liveChatMessage -> chat event", () => {
  it("maps a text message with the author's roles into a valid chat event", () => {
    const outcome = mapLiveChatMessage(chatMessage("text"), channel);
    expect(outcome.kind).toBe("chat");
    if (outcome.kind !== "chat") return;
    expect(chatEventSchema.parse(outcome.event)).toEqual(outcome.event);
    expect(outcome.event).toMatchObject({
      id: "LCC.text-1",
      type: "message",
      platform: "youtube",
      timestamp: Date.parse("2026-11-23T15:00:01.123Z"),
      message: "hello everyone",
      user: { platform_id: "UCviewer0000000000000001", username: "Carol", badges: [] },
      channel,
      platform_data: { type: "textMessageEvent", role: "viewer", permission_level: 0 },
    });
  });

  it("splits :emoji: and @mentions into fragments and keeps unicode emoji as text", () => {
    const outcome = mapLiveChatMessage(chatMessage("text-emoji-mention"), channel);
    if (outcome.kind !== "chat") throw new Error("not chat");
    expect(outcome.event.fragments).toEqual([
      { type: "text", text: "hi " },
      { type: "mention", text: "@FunStreamer" },
      { type: "text", text: " " },
      { type: "emote", text: ":hand-pink-waving:", data: { platform: "youtube", platform_id: "hand-pink-waving" } },
      { type: "text", text: " 🎉 " },
      { type: "emote", text: ":_myChannelEmote:", data: { platform: "youtube", platform_id: "_myChannelEmote" } },
    ]);
    expect(outcome.event.user.badges.map((b) => b.type)).toEqual(["subscriber", "verified"]);
    expect(permissionLevelOf(outcome.event)).toBe(PERMISSION_LEVELS.subscriber);
    expect(buildFragments("at 12:30:45 mail me@example.com")).toEqual([{ type: "text", text: "at 12:30:45 mail me@example.com" }]);
  });

  it("gives moderators and the owner their permission level", () => {
    const mod = mapLiveChatMessage(chatMessage("text-moderator"), channel);
    const owner = mapLiveChatMessage(chatMessage("text-owner"), channel);
    if (mod.kind !== "chat" || owner.kind !== "chat") throw new Error("not chat");
    expect(mod.event.user.badges).toEqual([{ type: "moderator", text: "Moderator", id: "youtube/moderator", count: null }]);
    expect(permissionLevelOf(mod.event)).toBe(PERMISSION_LEVELS.moderator);
    expect(owner.event.user.badges[0]?.type).toBe("broadcaster");
    expect(permissionLevelOf(owner.event)).toBe(PERMISSION_LEVELS.broadcaster);
    expect(owner.event.platform_data).toMatchObject({ role: "owner", permission_level: PERMISSION_LEVELS.broadcaster });
  });

  it("maps deletions and bans to delete-message and clear-chat, and the chat end to ended", () => {
    expect(mapLiveChatMessage(chatMessage("message-deleted"), channel)).toEqual({ kind: "moderation", event: { type: "delete-message", channel, id: "LCC.text-1" } });
    expect(mapLiveChatMessage(chatMessage("user-banned"), channel)).toEqual({
      kind: "moderation",
      event: { type: "clear-chat", channel, user_platform_id: "UCviewer0000000000000001" },
    });
    expect(mapLiveChatMessage(chatMessage("chat-ended"), channel)).toEqual({ kind: "ended" });
    expect(mapLiveChatMessage(chatMessage("tombstone"), channel)).toEqual({ kind: "ignored", type: "tombstone" });
    expect(mapLiveChatMessage(chatMessage("sponsor-only-mode-started"), channel)).toEqual({ kind: "ignored", type: "sponsorOnlyModeStartedEvent" });
  });

  it("reports malformed and unknown messages instead of throwing", () => {
    for (const [name, raw] of Object.entries(chatFixtures.malformed)) {
      const outcome = mapLiveChatMessage(raw, channel);
      expect(outcome.kind, name).toBe("malformed");
    }
    expect(mapLiveChatMessage(chatFixtures.malformed["unknown-type"], channel)).toMatchObject({ type: "hologramEvent", reason: "unknown message type" });
  });
});

describe("liveChatMessage -> alert notification", () => {
  it("Super Chat -> superchat with the amount in currency units as a string, plus a highlighted chat message", () => {
    const outcome = alertOf("super-chat");
    expect(outcome.notification.subscription.type).toBe("superchat");
    expect(outcome.notification.notification).toEqual({ id: "LCC.superchat-1", created_at: "2026-11-23T15:01:00.000000Z" });
    expect(outcome.notification.event).toEqual({ name: "Carol", message: "Love the stream!", tier: "2", currency: "USD", amount: "5", amount_micros: "5000000" });
    expect(outcome.chat?.attributes.highlight).toBe(true);
    expect(outcome.chat?.message).toBe("Love the stream!");
    expect(alertOf("super-chat-no-comment").chat).toBeNull();
    expect((alertOf("super-chat-no-comment").notification.event as Record<string, unknown>).amount).toBe("1.99");
  });

  it("Super Sticker -> supersticker", () => {
    const outcome = alertOf("super-sticker");
    expect(outcome.notification.subscription.type).toBe("supersticker");
    expect(outcome.notification.event).toEqual({
      name: "Carol",
      sticker: "sticker_hype_cat",
      sticker_alt_text: "A cat cheering",
      tier: "1",
      currency: "USD",
      amount: "2",
      amount_micros: "2000000",
    });
  });

  it("memberships -> subscribe, re-subscribe and gift-subscribe with the level name as tier", () => {
    const member = alertOf("new-member").notification;
    expect([member.subscription.type, member.event]).toEqual(["subscribe", { name: "Eve", tier: "Super Fans", is_gift: false, is_upgrade: false }]);
    const gifted = alertOf("gift-membership-received").notification;
    expect([gifted.subscription.type, gifted.event]).toEqual(["subscribe", { name: "Finn", tier: "Super Fans", is_gift: true, is_upgrade: false }]);
    const milestone = alertOf("member-milestone");
    expect(milestone.notification.subscription.type).toBe("re-subscribe");
    expect(milestone.notification.event).toEqual({ name: "Dana", message: "Half a year already!", emotes: [], tier: "Super Fans", months: 6, streak: 0, duration: 1 });
    expect(milestone.chat?.message).toBe("Half a year already!");
    const gift = alertOf("membership-gifting").notification;
    expect([gift.subscription.type, gift.event]).toEqual([
      "gift-subscribe",
      { gifter: "Dana", tier: "Super Fans", amount: 5, cumulative_amount: 5, is_anonymous: false },
    ]);
  });

  it("formats micros exactly", () => {
    expect(microsToAmount("5000000")).toBe("5");
    expect(microsToAmount(1990000)).toBe("1.99");
    expect(microsToAmount("100000000000")).toBe("100000");
    expect(microsToAmount("500")).toBe("0.0005");
    expect(microsToAmount("0")).toBe("0");
  });
});

describe("hostile input", () => {
  it("never throws, and whatever maps to chat or an alert passes the host's schemas", () => {
    const kinds = ["textMessageEvent", "superChatEvent", "superStickerEvent", "newSponsorEvent", "memberMilestoneChatEvent", "membershipGiftingEvent", "giftMembershipReceivedEvent", "messageDeletedEvent", "userBannedEvent", "chatEndedEvent", "x"];
    const anyJson = fc.jsonValue({ maxDepth: 3 });
    // Real shapes with fields replaced by arbitrary JSON, and arbitrary JSON outright.
    const mutated = fc.tuple(fc.constantFrom(...Object.keys(chatFixtures.messages)), fc.constantFrom("snippet", "authorDetails", "id"), fc.string(), anyJson, fc.constantFrom(...kinds)).map(
      ([name, where, key, value, type]) => {
        const message = chatMessage(name);
        const target = (where === "id" ? message : (message[where] as Record<string, unknown> | undefined)) ?? message;
        target[where === "id" ? "id" : key] = value;
        if (key.length % 2 === 0) (message.snippet as Record<string, unknown>).type = type;
        return message as unknown;
      },
    );
    fc.assert(
      fc.property(fc.oneof(mutated, anyJson), (raw) => {
        const outcome = mapLiveChatMessage(raw, channel);
        if (outcome.kind === "chat") expect(chatEventSchema.safeParse(outcome.event).success).toBe(true);
        if (outcome.kind === "alert") {
          expect(notifySubSchema.safeParse(outcome.notification).success).toBe(true);
          if (outcome.chat) expect(chatEventSchema.safeParse(outcome.chat).success).toBe(true);
        }
      }),
      { numRuns: 2000, seed: 15 },
    );
  });
});
