import { PluginHost } from "@ovation/core";
import type { ChatEvent, ChatRoomEvent, NotifySub } from "@ovation/core";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TikTokPlugin } from "../plugin.js";
import type { TikTokPluginOptions } from "../options.js";
import { FakeWebcast, giftStreakMessages, likeMessages, tiktokFixtures, tiktokMessage } from "../testing/index.js";
import { until } from "@ovation/core/plugin-kit/testing";

const logger = pino({ level: "silent" });

/** Waits (vitest's waitFor, 10 s) for `read` to give a value. */
const data = (n: NotifySub): Record<string, unknown> => (Array.isArray(n.event) ? {} : n.event);

describe("TikTok plugin against a loopback fake webcast server (real tiktok-live-connector decoding)", () => {
  let fake: FakeWebcast;
  let host: PluginHost;
  let plugin: TikTokPlugin;
  let alerts: NotifySub[];
  let room: ChatRoomEvent[];
  let statuses: string[];

  beforeEach(async () => {
    fake = await new FakeWebcast().start();
    alerts = [];
    room = [];
    statuses = [];
  });
  afterEach(async () => {
    await host.stop();
    await fake.stop();
  });

  /** Plugin options pointing at the fake, with fast timings. */
  const options = (settings: Partial<TikTokPluginOptions> = {}): TikTokPluginOptions => ({
    channelId: "1",
    uniqueId: tiktokFixtures.room.uniqueId,
    signServerUrl: fake.signServerUrl,
    webUrl: fake.webUrl,
    webcastUrl: fake.webUrl,
    caCertificate: fake.caCertificate,
    likeWindowSeconds: 0.3,
    offlinePollSeconds: 0.1,
    backoffMs: { min: 20, max: 200 },
    ...settings,
  });

  async function start(settings: Partial<TikTokPluginOptions> = {}): Promise<void> {
    host = new PluginHost({
      logger,
      alerts: (n) => void alerts.push(n),
      chatRoom: (e) => void room.push(e),
      runtime: (event: ChatEvent) => (event.message.startsWith("!hello") ? [{ text: `hi ${event.user.username}!`, send_as: "say" }] : []),
    });
    plugin = new TikTokPlugin(options(settings));
    host.register(plugin);
    await host.connect("tiktok");
    const status = (): string => host.health().find((s) => s.name === "tiktok")?.detail ?? "";
    statuses.push(await until(() => (status().startsWith("live") ? status() : null), "the plugin to go live"));
    await fake.waitForConnections(1);
  }

  const messages = (): ChatEvent[] => room.flatMap((e) => (e.event === "message" ? [e.payload] : []));

  it("runs a command from a comment and shows the answer in the .chat room, since TikTok has no way to post", { timeout: 20_000 }, async () => {
    await start();
    expect(statuses[0]).toContain("read-only");
    expect(alerts.map((a) => a.subscription.type)).toEqual(["stream.online"]);
    fake.push([tiktokMessage("comment")]);
    const answer = await until(() => messages().find((m) => m.platform_data?.["answer"] === true), "the answer in .chat");
    expect(answer.message).toBe("[not posted to TikTok] hi viewer.one!");
    const comment = messages().find((m) => m.message === "!hello");
    expect(comment?.user).toMatchObject({ platform_id: "6901000000000000001", username: "viewer.one", avatar_url: "https://p16.example.invalid/viewer-one.webp" });
    expect(comment?.user.badges.map((b) => b.type)).toEqual(["follower"]);
    expect(comment?.channel).toEqual({ id: "1", platform_id: tiktokFixtures.room.ownerId, username: tiktokFixtures.room.uniqueId, avatar_url: "https://p16.example.invalid/streamer.webp" });
    // The answer itself ran no command (it never starts with the command prefix).
    expect(messages().filter((m) => m.platform_data?.["answer"] === true)).toHaveLength(1);
  });

  it("maps roles, emotes, stickers and a moderator's deletions, and drops a redelivered message by msgId", { timeout: 20_000 }, async () => {
    await start();
    fake.push([tiktokMessage("moderator-comment"), tiktokMessage("emote-comment"), tiktokMessage("sticker")]);
    fake.push([tiktokMessage("moderator-comment")]);
    await until(() => messages().length >= 3, "three chat messages");
    fake.push([tiktokMessage("follow")]);
    await until(() => alerts.some((a) => a.subscription.type === "follow"), "the follow");
    const [mod, emote, sticker] = messages();
    expect(messages()).toHaveLength(3);
    expect(mod?.user.badges.map((b) => b.type)).toEqual(["moderator", "subscriber", "top-gifter", "follower"]);
    expect(emote?.fragments).toEqual([
      { type: "text", text: "gg " },
      { type: "emote", text: "[7200000000000000001]", data: { platform: "tiktok", platform_id: "7200000000000000001" } },
      { type: "text", text: " wp" },
    ]);
    expect(sticker?.fragments[0]).toMatchObject({ type: "emote", data: { platform_id: "7200000000000000002" } });
    fake.push([tiktokMessage("delete")]);
    await until(() => room.some((e) => e.event === "clear-chat"), "the moderator's deletions");
    expect(room.filter((e) => e.event !== "message").map((e) => [e.event, e.payload])).toEqual([
      ["delete-message", { id: "tiktok-7311000000000000102", channel: "1" }],
      ["clear-chat", { channel: "1", user_platform_id: "6901000000000000003" }],
    ]);
  });

  it("turns a gift streak into exactly one donation-shaped alert with the final count", { timeout: 20_000 }, async () => {
    await start();
    const streak = giftStreakMessages();
    for (const step of streak) fake.push([step]);
    fake.push([streak[streak.length - 1]!]); // the end redelivered
    fake.push([tiktokMessage("gift-single"), tiktokMessage("follow")]);
    await until(() => alerts.some((a) => a.subscription.type === "follow"), "the follow after the gifts");
    const gifts = alerts.filter((a) => a.subscription.type === "donation");
    expect(gifts.map(data)).toEqual([
      { name: "rose.sender", gift_name: "Rose", gift_id: "5655", count: 5, diamonds: 1, amount: "5", currency: "TikTok diamonds", message: "" },
      { name: "big.fan", gift_name: "Galaxy", gift_id: "6820", count: 1, diamonds: 1000, amount: "1000", currency: "TikTok diamonds", message: "" },
    ]);
    expect(gifts[0]?.subscription.condition).toEqual({ platform: "tiktok", platform_id: tiktokFixtures.room.ownerId });
  });

  it("maps follows, shares and subscriptions, and adds likes up into one notification per window", { timeout: 20_000 }, async () => {
    await start();
    fake.push([tiktokMessage("follow"), tiktokMessage("share"), tiktokMessage("subscribe")]);
    fake.push(likeMessages());
    const likes = await until(() => alerts.find((a) => a.subscription.type === "tiktok.likes"), "the likes window");
    expect(data(likes)).toEqual({ count: 37, users: 2, top_name: "tapper", top_count: 30, total: 1037, window_seconds: 0.3 });
    expect(alerts.filter((a) => a.subscription.type === "tiktok.likes")).toHaveLength(1);
    const byType = Object.fromEntries(alerts.map((a) => [a.subscription.type, data(a)]));
    expect(byType["follow"]).toEqual({ name: "new.follower" });
    expect(byType["tiktok.share"]).toEqual({ name: "sharer", target: "whatsapp" });
    expect(byType["subscribe"]).toEqual({ name: "subscriber.7", tier: "1000", is_gift: false });
  });

  it("skips malformed messages and frames without crashing, counting each", { timeout: 20_000 }, async () => {
    await start();
    fake.push([tiktokMessage("comment-without-user"), tiktokMessage("gift-without-gift")]);
    fake.pushRaw(new Uint8Array([0xff, 0xff, 0xff, 0x01, 0x02]));
    fake.push([tiktokMessage("emote-comment")]);
    await until(() => messages().length === 1, "the good message after the bad ones");
    expect(plugin.malformedCount).toBe(3);
    expect(host.health().find((s) => s.name === "tiktok")?.status).toBe("connected");
  });

  it("goes offline when TikTok ends the LIVE, and online again (once) after a dropped connection", { timeout: 20_000 }, async () => {
    await start();
    fake.dropConnections();
    await until(() => fake.requests.filter((r) => r.server === "sign").length >= 2, "a reconnect through the sign server");
    await fake.waitForConnections(1);
    expect(alerts.filter((a) => a.subscription.type === "stream.online")).toHaveLength(1);
    fake.roomStatus = 4;
    fake.push([tiktokMessage("stream-end")]);
    await until(() => alerts.some((a) => a.subscription.type === "stream.offline"), "stream.offline");
    await until(() => (host.health().find((s) => s.name === "tiktok")?.detail ?? "").includes("not live"), "the offline status");
  });

  it("shows a refusing sign server (429 with retry-after) as degraded, retries with backoff, then goes live", { timeout: 20_000 }, async () => {
    fake.signStatus = 429;
    host = new PluginHost({ logger, alerts: (n) => void alerts.push(n), chatRoom: (e) => void room.push(e) });
    plugin = new TikTokPlugin(options({ backoffMs: { min: 50, max: 200 } }));
    host.register(plugin);
    await host.connect("tiktok");
    const health = () => host.health().find((s) => s.name === "tiktok");
    await until(() => health()?.status === "degraded", "the degraded status");
    expect(health()?.detail).toMatch(/Too many connections started, try again later.*retrying in \d+ s/);
    await until(() => fake.requests.filter((r) => r.server === "sign").length >= 2, "a retry");
    fake.signStatus = null;
    await until(() => (health()?.detail ?? "").startsWith("live"), "live after the limit");
    expect(alerts.filter((a) => a.subscription.type === "stream.online")).toHaveLength(1);
  });

  it("sends the sign server only the room id, the library's name, a browser user agent and the API key (no TikTok session)", { timeout: 20_000 }, async () => {
    await start({ signApiKey: "test-key" });
    const sign = fake.requests.find((r) => r.server === "sign");
    expect(sign?.path).toBe(`/webcast/rooms/${tiktokFixtures.room.roomId}/connect`);
    expect(sign?.query).toEqual({ client: "ttlive-node", client_enter: "true", cursor: "", platform: "web", user_agent: expect.stringMatching(/^Mozilla\/5\.0 /) });
    expect(sign?.headers["x-api-key"]).toBe("test-key");
    expect(sign?.headers["x-cookie-header"]).toBeUndefined();
    const web = fake.requests.filter((r) => r.server === "web").map((r) => r.path);
    expect(web).toEqual([`/@${tiktokFixtures.room.uniqueId}/live`, "/webcast/room/info/"]);
  });
});
