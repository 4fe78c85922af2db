import { PluginHost } from "@ovation/core";
import type { ChatEvent, ChatRoomEvent, NotifySub } from "@ovation/core";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GoogleTokens } from "../api/client.js";
import { YouTubePlugin } from "../plugin.js";
import type { YouTubePluginOptions } from "../options.js";
import { FakeGoogle, apiFixtures, chatMessage } from "../testing/index.js";
import { until } from "@ovation/core/plugin-kit/testing";

const logger = pino({ level: "silent" });

describe("YouTube plugin against a loopback fake of Google", () => {
  let google: FakeGoogle;
  let host: PluginHost;
  let plugin: YouTubePlugin;
  let alerts: NotifySub[];
  let chat: ChatEvent[];
  let room: ChatRoomEvent[];
  let stored: GoogleTokens[];

  beforeEach(async () => {
    google = await FakeGoogle.start();
    alerts = [];
    chat = [];
    room = [];
    stored = [];
  });
  afterEach(async () => {
    await host.stop();
    await google.close();
  });

  async function start(settings: Partial<YouTubePluginOptions> = {}, answer: (e: ChatEvent) => string | null = () => null): Promise<void> {
    host = new PluginHost({
      logger,
      alerts: (n) => void alerts.push(n),
      chatRoom: (e) => void room.push(e),
      runtime: (event) => {
        chat.push(event);
        const text = answer(event);
        return text === null ? [] : [{ text, send_as: "reply" }];
      },
    });
    plugin = new YouTubePlugin(
      {
        channelId: "1",
        clientId: google.clientId,
        clientSecret: google.clientSecret,
        tokens: { refreshToken: google.refreshToken },
        apiUrl: google.apiUrl,
        tokenUrl: google.tokenUrl,
        offlinePollSeconds: 0.05,
        subscribersPollSeconds: 0.1,
        minChatPollMs: 0,
        sendGapMs: 0,
        backoffMs: { min: 20, max: 200 },
        // A budget large enough that YouTube's pollingIntervalMillis (50 ms on the fake) sets the pace.
        quota: { dailyUnits: 10_000_000 },
        ...settings,
      },
      { onTokensRefreshed: (t) => void stored.push(t) },
    );
    host.register(plugin);
    await host.connect("youtube");
  }

  it("finds the broadcast, goes online, reads chat pages, answers through insert, maps alerts and goes offline", { timeout: 30_000 }, async () => {
    await start({}, (e) => (e.message.startsWith("!hug") ? `${e.user.username} sends a hug to ${e.message.split(" ")[1] ?? ""} <3` : null));
    // Refreshed at connect (no access token given), and the refreshed token went to the store hook.
    expect(stored.length).toBe(1);
    expect(stored[0]?.refreshToken).toBe(google.refreshToken);
    expect(plugin.channels()[0]).toMatchObject({ id: "1", platform_id: "UCowner00000000000000000", username: "FunStreamer" });
    await until(() => host.health()[0]?.detail?.includes("no live broadcast"), "offline status");
    google.live = true;
    await until(() => alerts.find((a) => a.subscription.type === "stream.online"), "stream.online");
    google.publish(chatMessage("hug-command"));
    await until(() => google.inserted.length === 1, "the !hug answer");
    expect(google.inserted).toEqual(["Carol sends a hug to Bob <3"]);
    // The bot's own message comes back through the chat like on YouTube, as the owner.
    await until(() => chat.find((e) => e.message === "Carol sends a hug to Bob <3"), "echo of the answer");

    for (const name of ["super-chat", "super-sticker", "new-member", "member-milestone", "membership-gifting", "gift-membership-received"]) google.publish(chatMessage(name));
    await until(() => alerts.length >= 7, "all alerts");
    expect(alerts.map((a) => a.subscription.type)).toEqual(["stream.online", "superchat", "supersticker", "subscribe", "re-subscribe", "gift-subscribe", "subscribe"]);
    // The Super Chat's comment is also a highlighted chat message.
    expect(chat.find((e) => e.message === "Love the stream!")?.attributes.highlight).toBe(true);

    // Redelivery of the same YouTube message id is dropped.
    const superChat = chatMessage("super-chat");
    google.publish(superChat, true);
    google.publish(superChat, true);
    google.publish(chatMessage("message-deleted"));
    google.publish(chatMessage("user-banned"));
    await until(() => room.filter((e) => e.event !== "message").length === 2, "moderation events");
    expect(alerts.filter((a) => a.subscription.type === "superchat").length).toBe(2);
    expect(alerts.filter((a) => a.notification.id === "LCC.superchat-1").length).toBe(1);
    expect(room.filter((e) => e.event !== "message").map((e) => e.event)).toEqual(["delete-message", "clear-chat"]);

    // A follow: a subscriber who was not in the first look.
    google.addSubscriber(apiFixtures.newSubscriber as Record<string, unknown>);
    const follow = await until(() => alerts.find((a) => a.subscription.type === "follow"), "follow");
    expect(follow.event).toEqual({ name: "New Fan" });
    expect(alerts.filter((a) => a.subscription.type === "follow").length).toBe(1);

    // Quota accounting matches what the fake counted, and shows in the status.
    await host.idle();
    const q = plugin.quota();
    expect(q.calls["liveChatMessages.insert"]).toBe(google.calls["liveChatMessages.insert"]);
    expect(q.calls["channels.list"]).toBe(1);
    // Each call is charged before it is sent: at most one chat poll (5) and one subscriber poll (1) are in flight.
    expect(q.used).toBeGreaterThanOrEqual(google.unitsUsed);
    expect(q.used).toBeLessThanOrEqual(google.unitsUsed + 6);
    expect(host.health()[0]?.detail).toMatch(/quota \d+\/10000000 units used today \(\d+ left\)/);

    google.endChat();
    await until(() => alerts.find((a) => a.subscription.type === "stream.offline"), "stream.offline");
    expect(plugin.liveChatId).toBeNull();
    await until(() => host.health()[0]?.detail?.includes("no live broadcast"), "offline again");
  });

  it("skips malformed items, logging once per kind, and keeps polling", { timeout: 20_000 }, async () => {
    google.live = true;
    await start();
    await until(() => plugin.liveChatId, "live");
    google.publish({ kind: "youtube#liveChatMessage", id: "x1", snippet: { type: "hologramEvent", publishedAt: new Date().toISOString() } }, true);
    google.publish({ nonsense: true }, true);
    google.publish(chatMessage("text"));
    await until(() => chat.find((e) => e.message === "hello everyone"), "chat after garbage");
    expect(plugin.malformedCount).toBe(2);
  });

  it("skips the live chat's history from before it started, but reads a message sent after it started and before it found the broadcast", { timeout: 20_000 }, async () => {
    google.live = true;
    const old = chatMessage("text");
    (old.snippet as Record<string, unknown>).publishedAt = new Date(Date.now() - 60_000).toISOString();
    (old.snippet as Record<string, unknown>).displayMessage = "from before";
    ((old.snippet as Record<string, unknown>).textMessageDetails as Record<string, unknown>).messageText = "from before";
    google.publish(old, true);
    // Its first broadcast lookup fails: the plugin has started (the host may call the channel
    // served) but finds the broadcast only after a backoff.
    google.fail("liveBroadcasts.list", "backendError", 1);
    await start({ backoffMs: { min: 400, max: 400 } });
    expect(plugin.liveChatId).toBeNull();
    google.publish(chatMessage("text"));
    await until(() => chat.find((e) => e.message === "hello everyone"), "the message sent before the broadcast was found");
    expect(chat.map((e) => e.message)).not.toContain("from before");
  });

  it("waits out 429 rate limits and recovers, refreshes an expired access token, and shows quota exhaustion", { timeout: 20_000 }, async () => {
    google.live = true;
    await start();
    await until(() => plugin.liveChatId, "live");
    google.fail("liveChatMessages.list", "rateLimitExceeded", 2, { "retry-after": "0" });
    await until(() => host.health()[0]?.detail?.includes("rate limit"), "rate-limit status");
    google.publish(chatMessage("text"));
    await until(() => chat.find((e) => e.message === "hello everyone"), "chat after the rate limit");
    expect(host.health()[0]?.status).toBe("connected");

    google.fail("liveChatMessages.list", "backendError", 1);
    google.publish(chatMessage("text-moderator"));
    await until(() => chat.find((e) => e.message === "please be nice"), "chat after a 503 backendError");

    google.expireAccessTokens();
    google.publish(chatMessage("text-owner"));
    await until(() => chat.find((e) => e.message === "welcome!"), "chat after the token expired");
    expect(stored.length).toBe(2);

    google.fail("liveChatMessages.list", "quotaExceeded", 1);
    await until(() => host.health()[0]?.detail?.includes("daily quota is used up"), "quota status");
    expect(host.health()[0]?.status).toBe("degraded");
    expect(plugin.quota().exhausted).toBe(true);
    await expect(host.send("youtube", { channel: plugin.channels()[0]!, text: "hi", send_as: "say", reply_to: null })).rejects.toThrow(/budget is used up/);
  });

  it("connects while Google fails, and finds the channel once it answers", { timeout: 20_000 }, async () => {
    google.live = true;
    google.fail("channels.list", "backendError", 2);
    await start();
    expect(host.health()[0]).toMatchObject({ status: "degraded", detail: expect.stringMatching(/not answering yet.*backendError/) });
    await until(() => plugin.liveChatId, "live after Google recovered");
    expect(plugin.channels()[0]?.platform_id).toBe("UCowner00000000000000000");
  });

  it("registers without tokens and fails its connect with the fixing step", async () => {
    host = new PluginHost({ logger });
    plugin = new YouTubePlugin({ channelId: "1", clientId: google.clientId, clientSecret: google.clientSecret, apiUrl: google.apiUrl, tokenUrl: google.tokenUrl });
    host.register(plugin);
    await expect(host.connect("youtube")).rejects.toThrow(/No Google tokens/);
    expect(host.health()[0]).toMatchObject({ status: "failed", detail: expect.stringMatching(/reconnect YouTube under Connections/) });
  });

  it("reports a revoked grant as a failed status with the fixing step", { timeout: 20_000 }, async () => {
    await start();
    google.revoke();
    google.expireAccessTokens();
    await until(() => host.health()[0]?.status === "failed", "failed status");
    expect(host.health()[0]?.detail).toMatch(/invalid_grant.*YouTube again under Connections/);
  });

  it("ends the chat on 403 liveChatEnded without a chatEndedEvent", { timeout: 20_000 }, async () => {
    google.live = true;
    await start();
    await until(() => plugin.liveChatId, "live");
    google.live = false;
    google.fail("liveChatMessages.list", "liveChatEnded", 1);
    await until(() => alerts.find((a) => a.subscription.type === "stream.offline"), "stream.offline");
  });

  it("pauses chat polling when the day's budget is spent, keeping the reserve for answers", { timeout: 20_000 }, async () => {
    google.live = true;
    await start({ quota: { dailyUnits: 30, reserveUnits: 20, streamHours: 1 }, subscribersPollSeconds: 0 });
    await until(() => host.health()[0]?.detail?.includes("chat paused"), "paused status");
    expect(host.health()[0]?.status).toBe("degraded");
    const polls = google.calls["liveChatMessages.list"] ?? 0;
    // channels.list 1 + liveBroadcasts.list 1 + polls x 5 never cross 30 - 20 = 10 units.
    expect(1 + 1 + polls * 5).toBeLessThanOrEqual(10);
    google.publish(chatMessage("text"));
    await host.send("youtube", { channel: plugin.channels()[0]!, text: "still answering", send_as: "say", reply_to: null });
    expect(google.inserted).toEqual(["still answering"]);
    expect(plugin.quota().used).toBeLessThanOrEqual(30);
  });

  it("refuses answers beyond the send queue and while offline", { timeout: 20_000 }, async () => {
    await start({ sendQueueLimit: 1, sendGapMs: 200 });
    const channel = plugin.channels()[0]!;
    await expect(plugin.send({ channel, text: "hi", send_as: "say", reply_to: null })).rejects.toThrow(/Nothing is live/);
    google.live = true;
    await until(() => plugin.liveChatId, "live");
    const sends = [1, 2, 3].map((i) => plugin.send({ channel, text: `m${i}`, send_as: "say", reply_to: null }));
    const results = await Promise.allSettled(sends);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/send queue is full/);
    expect(google.inserted).toEqual(["m1", "m2"]);
  });
});
