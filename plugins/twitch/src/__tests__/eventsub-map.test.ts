import { notifySubSchema } from "@ovation/core";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MAPPED_TYPES, mapEventSubNotification, toMicrosecondIso } from "../eventsub/map.js";
import { SUBSCRIPTIONS } from "../eventsub/subscriptions.js";
import type { EventSubNotification } from "../eventsub/wire.js";
import { eventSubFixture } from "./fixtures.js";

interface Fixture {
  metadata: { message_id: string; message_timestamp: string };
  payload: { subscription: EventSubNotification["subscription"]; event: Record<string, unknown> };
}

function map(name: string) {
  const f = eventSubFixture<Fixture>(name);
  const result = mapEventSubNotification({
    messageId: f.metadata.message_id,
    timestamp: f.metadata.message_timestamp,
    subscription: f.payload.subscription,
    event: f.payload.event,
  });
  if (!result.ok) throw new Error(result.reason);
  return notifySubSchema.parse(result.notification);
}

const catalog = JSON.parse(readFileSync(new URL("../../../../fixtures/alert-catalog.ae4.json", import.meta.url), "utf8")) as {
  variations: { type: string; platforms: { type: string; parameters: { name: string }[] }[] }[];
};
function catalogParameters(type: string): string[] | null {
  const twitch = catalog.variations.find((v) => v.type === type)?.platforms.find((p) => p.type === "twitch");
  return twitch ? twitch.parameters.map((p) => p.name).sort() : null;
}

describe("EventSub -> NotifySub mapping", () => {
  const expected: [string, string, Record<string, unknown>][] = [
    ["channel.follow", "follow", { name: "Cool_User" }],
    ["channel.subscribe", "subscribe", { name: "Cool_User", tier: "1000", is_gift: false }],
    [
      "channel.subscription.message",
      "re-subscribe",
      { name: "Cool_User", tier: "2000", months: 15, streak: 1, duration: 6, message: "Love the stream! FevziGG", emotes: [{ begin: 17, end: 23, id: "302976485" }] },
    ],
    ["channel.subscription.gift", "gift-subscribe", { gifter: "Cool_User", tier: "1000", amount: 2, cumulative_amount: 284, is_anonymous: false }],
    ["channel.subscription.gift-anonymous", "gift-subscribe", { gifter: "Anonymous", tier: "3000", amount: 5, cumulative_amount: 0, is_anonymous: true }],
    ["channel.cheer", "cheer", { name: "Cool_User", amount: 1000, message: "pogchamp Cheer1000", is_anonymous: false }],
    ["channel.raid", "raid", { name: "Cool_User", count: 9001 }],
    ["channel.hype_train.begin", "channel.hype_train.begin", { level: 2 }],
    ["channel.shoutout.create", "channel.shoutout.create", { name: "SandySanderman", url: "https://twitch.tv/sandysanderman" }],
    ["channel.shoutout.receive", "channel.shoutout.receive", { name: "SandySanderman", url: "https://twitch.tv/sandysanderman" }],
    [
      "channel.channel_points_custom_reward_redemption.add",
      "channel_points.redemption.add",
      { name: "Cooler_User", user_input: "pogchamp", reward_title: "title", reward_cost: 100 },
    ],
    [
      "channel.charity_campaign.donate",
      "charity-donation",
      {
        campaign_id: "123-abc-456-def",
        name: "Cool_User",
        charity_name: "Example name",
        charity_description: "Example description",
        charity_website: "https://www.example.com",
        charity_logo: "https://abc.cloudfront.net/ppgf/1000/100.png",
        amount: 100,
        currency: "USD",
      },
    ],
    ["stream.online", "stream.online", { stream_type: "live", started_at: "2026-11-21T04:31:00.123456789Z" }],
    ["stream.offline", "stream.offline", {}],
    ["channel.update", "update", { title: "Best Stream Ever", language: "en", category_id: "12453", category_name: "Grand Theft Auto" }],
  ];

  it.each(expected)("maps %s to %s with the catalog's parameters", (fixture, type, data) => {
    const notification = map(fixture);
    expect(notification.subscription).toEqual({ type, version: "1", condition: { platform: "twitch", platform_id: "12345678" } });
    expect(notification.notification.created_at).toBe("2026-11-21T04:31:00.123456Z");
    expect(notification.event).toMatchObject({ data, template: null, test: false });
    const parameters = catalogParameters(type);
    // Alert types of the catalog get exactly the catalog's parameter names.
    if (parameters) expect(Object.keys(data).sort()).toEqual(parameters);
  });

  it("subscribes to every mapped type", () => {
    expect(SUBSCRIPTIONS.map((s) => s.type)).toEqual(MAPPED_TYPES);
  });

  it("explains a malformed event instead of throwing", () => {
    const f = eventSubFixture<Fixture>("channel.cheer");
    const result = mapEventSubNotification({
      messageId: "x",
      timestamp: f.metadata.message_timestamp,
      subscription: f.payload.subscription,
      event: { ...f.payload.event, bits: "lots" },
    });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining("event.bits:") });
    const unknown = mapEventSubNotification({ ...{ messageId: "y", timestamp: "", event: {} }, subscription: { ...f.payload.subscription, type: "channel.ban" } });
    expect(unknown).toEqual({ ok: false, reason: "EventSub type channel.ban is not mapped" });
  });

  it("writes timestamps with six fractional digits", () => {
    expect(toMicrosecondIso("2026-11-21T04:31:00Z")).toBe("2026-11-21T04:31:00.000000Z");
    expect(toMicrosecondIso("2026-11-21T04:31:00.1Z")).toBe("2026-11-21T04:31:00.100000Z");
  });
});
