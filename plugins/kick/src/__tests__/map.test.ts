import { chatEventSchema, notifySubSchema } from "@ovation/core/contracts";
import type { ChatChannel } from "@ovation/core/contracts";
import { describe, expect, it } from "vitest";
import { mapWebhookEvent } from "../chat/map.js";
import type { MapOutcome } from "../chat/map.js";
import { mapSocketFrame } from "../pusher/socket-map.js";
import { pusherFrameSchema } from "../pusher/socket-wire.js";
import { socketFixtures, socketFrame, webhookEvent, webhookFixtures } from "../testing/index.js";

const channel: ChatChannel = { id: "1", platform_id: "123456789", username: "KickStreamer", avatar_url: "" };

function webhook(name: string): MapOutcome {
  const f = webhookEvent(name);
  return mapWebhookEvent({ type: f.type, version: f.version, messageId: `msg-${name}`, timestamp: "2026-11-23T15:00:00Z", payload: f.body }, channel);
}

function alertOf(outcome: MapOutcome): { type: string; data: unknown } {
  if (outcome.kind !== "alert") throw new Error(`expected an alert, got ${outcome.kind}: ${JSON.stringify(outcome)}`);
  expect(notifySubSchema.safeParse(outcome.notification).success).toBe(true);
  expect(outcome.notification.subscription.condition).toEqual({ platform: "kick", platform_id: "123456789" });
  return { type: outcome.notification.subscription.type, data: outcome.notification.event };
}

describe("Kick webhook events -> Ovation", () => {
  it("maps a chat message with emote, mention, badges and colour into a valid chat event", () => {
    const outcome = webhook("chat-message");
    if (outcome.kind !== "chat") throw new Error(outcome.kind);
    expect(chatEventSchema.safeParse(outcome.event).success).toBe(true);
    expect(outcome.event).toMatchObject({ id: "0f1e2d3c-chat-0001", platform: "kick", user: { platform_id: "987654321", username: "Viewer1", color: "#FF5733" } });
    expect(outcome.event.fragments).toEqual([
      { type: "text", text: "Hello " },
      { type: "emote", text: "KEKW", data: { platform: "kick", platform_id: "37226" } },
      { type: "text", text: " " },
      { type: "mention", text: "@KickStreamer" },
    ]);
    expect(outcome.event.user.badges).toEqual([{ type: "subscriber", text: "Subscriber", id: "kick/subscriber", count: 3 }]);
    expect(outcome.event.platform_data).toMatchObject({ source: "webhook", permission_level: 1 });
  });

  it("maps a moderator's reply with its parent", () => {
    const outcome = webhook("chat-reply-moderator");
    if (outcome.kind !== "chat") throw new Error(outcome.kind);
    expect(outcome.event.parent).toEqual({ id: "0f1e2d3c-chat-0001", message: "Hello KEKW" });
    expect(outcome.event.user.badges.map((b) => b.type)).toEqual(["moderator", "sub-gifter"]);
    expect(outcome.event.platform_data).toMatchObject({ permission_level: 3 });
  });

  it("maps follows, subscriptions, renewals and gifts to the catalog types and keys", () => {
    expect(alertOf(webhook("follow"))).toEqual({ type: "follow", data: { name: "NewFan" } });
    expect(alertOf(webhook("subscription-new"))).toEqual({ type: "subscribe", data: { name: "SubAlice", tier: "1000", is_gift: false, months: 1 } });
    expect(alertOf(webhook("subscription-renewal"))).toEqual({
      type: "re-subscribe",
      data: { name: "LoyalBob", message: "", emotes: [], tier: "1000", months: 7, streak: 7, duration: 1 },
    });
    expect(alertOf(webhook("subscription-gifts"))).toEqual({
      type: "gift-subscribe",
      data: { gifter: "GenerousGina", tier: "1000", amount: 3, cumulative_amount: 0, is_anonymous: false, recipients: ["GifteeA", "GifteeB", "GifteeC"] },
    });
    expect(alertOf(webhook("subscription-gifts-anonymous")).data).toMatchObject({ gifter: "Anonymous", is_anonymous: true, amount: 1 });
  });

  it("maps live status, metadata, Kicks and reward redemptions; a ban clears the user's messages", () => {
    // The stream and channel-update types carry the documented empty list; Kick's payload stays in ovation.platform_data.
    expect(alertOf(webhook("stream-online"))).toEqual({ type: "stream.online", data: [] });
    expect(alertOf(webhook("stream-offline"))).toEqual({ type: "stream.offline", data: [] });
    expect(alertOf(webhook("metadata-updated"))).toEqual({ type: "update", data: [] });
    expect(alertOf(webhook("kicks-gifted"))).toEqual({ type: "cheer", data: { name: "KickRich", amount: 500, message: "w", is_anonymous: false, gift_name: "Rage Quit" } });
    expect(alertOf(webhook("reward-redemption"))).toEqual({
      type: "channel_points.redemption.add",
      data: { name: "RedeemRay", user_input: "play the song", reward_title: "Song request", reward_cost: 1000 },
    });
    expect(webhook("moderation-banned")).toEqual({ kind: "moderation", event: { type: "clear-chat", channel, user_platform_id: "666777888" } });
  });

  it("maps every event fixture to something (no fixture is left unmapped)", () => {
    for (const name of Object.keys(webhookFixtures.events)) expect(["chat", "alert", "moderation"]).toContain(webhook(name).kind);
  });

  it("reports malformed payloads and ignores unknown types and versions, never throwing", () => {
    expect(webhook("subscription-without-subscriber")).toMatchObject({ kind: "malformed", type: "channel.subscription.new", reason: expect.stringContaining("subscriber") });
    expect(webhook("chat-without-content")).toMatchObject({ kind: "malformed", reason: expect.stringContaining("content") });
    expect(webhook("unknown-type")).toMatchObject({ kind: "ignored", reason: "unknown event type" });
    expect(webhook("unknown-version")).toMatchObject({ kind: "ignored", reason: "unknown version 9" });
    for (const payload of [null, 42, "x", [], { broadcaster: 1 }]) {
      expect(mapWebhookEvent({ type: "chat.message.sent", version: "1", messageId: "m", timestamp: "t", payload }, channel).kind).toBe("malformed");
    }
  });
});

describe("Kick chat socket frames -> Ovation", () => {
  const map = (name: string): MapOutcome => mapSocketFrame(pusherFrameSchema.parse(socketFrame(name)), channel, Date.parse("2026-11-23T15:10:30Z"));

  it("maps chat, replies, deletions, clears and bans", () => {
    const chat = map("chat-message");
    if (chat.kind !== "chat") throw new Error(chat.kind);
    expect(chatEventSchema.safeParse(chat.event).success).toBe(true);
    expect(chat.event).toMatchObject({ id: "6b1c2d3e-sock-0001", message: "hi from the socket [emote:37226:KEKW]", user: { username: "Viewer1" }, platform_data: { source: "pusher" } });
    const reply = map("chat-reply");
    expect(reply.kind === "chat" && reply.event.parent).toEqual({ id: "6b1c2d3e-sock-0001", message: "hi from the socket" });
    expect(map("message-deleted")).toEqual({ kind: "moderation", event: { type: "delete-message", channel, id: "6b1c2d3e-sock-0001" } });
    expect(map("chat-cleared")).toEqual({ kind: "moderation", event: { type: "clear-chat", channel, user_platform_id: null } });
    expect(map("user-banned")).toEqual({ kind: "moderation", event: { type: "clear-chat", channel, user_platform_id: "666777888" } });
  });

  it("maps subscriptions and gifts, and skips what it does not map", () => {
    expect(alertOf(map("subscription"))).toEqual({ type: "subscribe", data: { name: "SockSub", tier: "1000", is_gift: false, months: 1 } });
    expect(alertOf(map("resubscription")).type).toBe("re-subscribe");
    expect(alertOf(map("gifted-subscriptions")).data).toMatchObject({ gifter: "SockGifter", amount: 2, is_anonymous: false });
    expect(map("pinned-message").kind).toBe("ignored");
    expect(map("chat-not-json")).toMatchObject({ kind: "malformed", reason: "data is not JSON" });
    expect(map("chat-without-sender")).toMatchObject({ kind: "malformed", reason: expect.stringContaining("sender") });
    expect(Object.keys(socketFixtures.frames).length).toBeGreaterThanOrEqual(10);
  });
});
