import { notifySubSchema } from "@ovation/core";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MAPPED_TYPES, mapEventSubNotification } from "../eventsub/map.js";
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
  return result.notifications.map((n) => notifySubSchema.parse(n));
}

const catalog = JSON.parse(readFileSync(new URL("../../../../fixtures/alert-catalog.ae4.json", import.meta.url), "utf8")) as {
  variations: { type: string; platforms: { type: string; parameters: { name: string }[] }[] }[];
};
function catalogParameters(type: string): string[] | null {
  const twitch = catalog.variations.find((v) => v.type === type)?.platforms.find((p) => p.type === "twitch");
  return twitch ? twitch.parameters.map((p) => p.name).sort() : null;
}

describe("EventSub -> NotifySub mapping", () => {
  const redemption = {
    id: "17fa2df1-ad76-4804-bfa5-a40ef63efe63",
    name: "Cooler_User",
    message: "pogchamp",
    status: "unfulfilled",
    user_id: "9001",
    user_login: "cooler_user",
    user_name: "Cooler_User",
    user_input: "pogchamp",
    broadcaster_id: "12345678",
    broadcaster_login: "dallas",
    broadcaster_name: "Dallas",
    reward_id: "92af127c-7326-4483-a52b-b0da0be61c01",
    reward_title: "title",
    reward_cost: 100,
    reward_prompt: "reward prompt",
  };
  const expected: [string, string, Record<string, unknown> | never[]][] = [
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
    ["channel.channel_points_custom_reward_redemption.update", "channel.channel_points_custom_reward_redemption.update", { ...redemption, status: "fulfilled" }],
    ["channel.channel_points_custom_reward.add", "channel.channel_points_custom_reward.add", { id: "9001" }],
    ["stream.online", "stream.online", []],
    ["stream.offline", "stream.offline", []],
    ["channel.update", "update", []],
  ];

  it.each(expected)("maps %s to %s with the documented payload at the top of event", (fixture, type, data) => {
    const [notification] = map(fixture);
    if (!notification) throw new Error("no notification");
    expect(notification.subscription).toEqual({ type, version: "1", condition: { platform: "twitch", platform_id: "12345678" } });
    expect(notification.notification.created_at).toBe("2026-11-21T04:31:00.123456Z");
    expect(notification.event).toEqual(data);
    expect(notification.ovation).toMatchObject({ template: null, test: false, platform_data: { type: fixture.replace("-anonymous", "") } });
    const parameters = catalogParameters(type);
    // Alert types of the catalog get exactly the catalog's parameter names.
    if (parameters) expect(Object.keys(data).sort()).toEqual(parameters);
  });

  it("emits a redemption both as the catalog alert and as the documented redemption notification", () => {
    const notifications = map("channel.channel_points_custom_reward_redemption.add");
    expect(notifications.map((n) => [n.subscription.type, n.notification.id])).toEqual([
      ["channel_points.redemption.add", "befa7b53-d79d-478f-86b9-120f112b000b"],
      ["channel.channel_points_custom_reward_redemption.add", "befa7b53-d79d-478f-86b9-120f112b000b-redemption"],
    ]);
    expect(notifications[1]?.event).toEqual(redemption);
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
});
