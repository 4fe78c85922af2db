import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChatEvent, NotifySub } from "@ovation/core/contracts";
import { PluginHost } from "@ovation/core/plugins";
import type { ChatRoomEvent } from "@ovation/core/plugins";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KickTokens } from "../api/client.js";
import { KICK_EVENTS } from "../api/wire.js";
import type { KickPluginOptions } from "../options.js";
import { KickPlugin } from "../plugin.js";
import { FakeKick, FakePusher, KickWebhookSender, socketFixtures, socketFrame } from "../testing/index.js";
import { until } from "@ovation/core/plugin-kit/testing";

const hug = (e: ChatEvent): string | null => (e.message.startsWith("!hug") ? `${e.user.username} sends a hug to ${e.message.split(" ")[1] ?? ""} <3` : null);

describe("Kick plugin against loopback fakes of Kick", () => {
  let kick: FakeKick;
  let host: PluginHost;
  let plugin: KickPlugin;
  let alerts: NotifySub[];
  let room: ChatRoomEvent[];
  let stored: KickTokens[];
  let logs: { msg: string; reason?: string; detail?: string }[];
  let receiver: Server | null;
  let pusher: FakePusher | null;

  beforeEach(async () => {
    kick = await FakeKick.start();
    alerts = [];
    room = [];
    stored = [];
    logs = [];
    receiver = null;
    pusher = null;
  });
  afterEach(async () => {
    await host.stop();
    await kick.close();
    await pusher?.close();
    if (receiver) await new Promise<void>((r) => receiver?.close(() => r()));
  });

  async function start(settings: Partial<KickPluginOptions>, answer: (e: ChatEvent) => string | null = () => null): Promise<void> {
    const logger = pino({ level: "info" }, { write: (line: string) => void logs.push(JSON.parse(line) as (typeof logs)[number]) });
    host = new PluginHost({
      logger,
      alerts: (n) => void alerts.push(n),
      chatRoom: (e) => void room.push(e),
      runtime: (event) => {
        const text = answer(event);
        return text === null ? [] : [{ text, send_as: "reply" }];
      },
    });
    plugin = new KickPlugin(
      {
        channelId: "1",
        clientId: kick.clientId,
        clientSecret: kick.clientSecret,
        tokens: { refreshToken: kick.refreshToken },
        apiUrl: kick.apiUrl,
        tokenUrl: kick.tokenUrl,
        sendGapMs: 0,
        backoffMs: { min: 20, max: 200 },
        ...settings,
      },
      { onTokensRefreshed: (t) => void stored.push(t) },
    );
    host.register(plugin);
    await host.connect("kick");
  }

  /** A loopback HTTP endpoint that hands raw requests to the plugin, like the server's route. */
  async function webhookEndpoint(): Promise<string> {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const verdict = plugin.handleWebhook({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(verdict.status, { "content-type": "application/json" }).end(JSON.stringify(verdict.accepted ? { status: "ok" } : { status: "refused", reason: verdict.reason }));
      });
    });
    await new Promise<void>((r) => receiver?.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
  }

  it("webhook mode: subscribes every event, answers a chat command through POST /chat, maps a subscription", { timeout: 30_000 }, async () => {
    const sender = new KickWebhookSender();
    kick.publicKeyPem = sender.publicKeyPem;
    await start({ webhookPublicKey: sender.publicKeyPem }, hug);
    sender.url = await webhookEndpoint();
    // Tokens: refreshed at connect (no access token given) and handed to the persistence hook.
    expect(stored).toHaveLength(1);
    expect(stored[0]?.refreshToken).toBe(kick.refreshToken);
    expect(kick.subscriptions.map((s) => s.name).sort()).toEqual([...KICK_EVENTS].sort());
    expect(kick.subscriptions.every((s) => s.broadcaster_user_id === 123456789)).toBe(true);
    expect(plugin.channels()[0]).toMatchObject({ platform_id: "123456789", username: "KickStreamer" });
    expect(host.health().find((h) => h.name === "kick")).toMatchObject({ status: "connected", detail: expect.stringContaining("10 of 10 events subscribed") });

    const answered = await sender.send("chat-command");
    expect(answered.status).toBe(200);
    const sent = await until(() => kick.sent[0], "the answer on POST /chat");
    expect(sent).toEqual({ broadcaster_user_id: 123456789, content: "Hugger sends a hug to Viewer1 <3", type: "bot", reply_to_message_id: "0f1e2d3c-chat-0002" });
    expect(room.some((e) => e.event === "message")).toBe(true);

    expect((await sender.send("subscription-new")).status).toBe(200);
    const sub = await until(() => alerts.find((a) => a.subscription.type === "subscribe"), "the subscribe alert");
    expect(sub.event).toMatchObject({ name: "SubAlice", tier: "1000" });
  });

  it("refuses forged, stale, tampered and replayed webhooks with a logged reason and emits nothing for them", { timeout: 30_000 }, async () => {
    const sender = new KickWebhookSender();
    kick.publicKeyPem = sender.publicKeyPem;
    await start({ webhookPublicKey: sender.publicKeyPem });
    sender.url = await webhookEndpoint();

    const [forged] = await sender.attack("forged-signature");
    expect(forged).toMatchObject({ status: 403, answer: expect.stringContaining("bad_signature") });
    const [stale] = await sender.attack("stale-timestamp");
    expect(stale).toMatchObject({ status: 403, answer: expect.stringContaining("stale_timestamp") });
    const [tampered] = await sender.attack("tampered-body");
    expect(tampered?.status).toBe(403);
    const [missing] = await sender.attack("missing-signature");
    expect(missing?.status).toBe(400);
    const [first, replay] = await sender.attack("replay");
    expect(first?.status).toBe(200);
    expect(replay).toMatchObject({ status: 200, answer: expect.stringContaining("replay") });

    await until(() => alerts.length === 1, "the one genuine delivery");
    await new Promise((r) => setTimeout(r, 100));
    expect(alerts.map((a) => a.subscription.type)).toEqual(["re-subscribe"]);
    const refusals = logs.filter((l) => l.msg.startsWith("Kick webhook refused"));
    expect(refusals.map((l) => l.reason)).toEqual(["bad_signature", "stale_timestamp", "bad_signature", "missing_header", "replay"]);
    expect(refusals.every((l) => typeof l.detail === "string" && l.detail.length > 0)).toBe(true);
    expect(plugin.webhookCounts).toEqual({ bad_signature: 2, stale_timestamp: 1, missing_header: 1, accepted: 1, replay: 1 });
  });

  it("waits out a 429 with Retry-After, refreshes an expired token (persisting it) and refuses answers beyond the queue", { timeout: 30_000 }, async () => {
    await start({ subscribe: false, sendQueueLimit: 2 });
    const channel = plugin.channels()[0];
    if (!channel) throw new Error("no channel");
    kick.rateLimitNext = 2;
    await plugin.send({ channel, text: "after two 429s", send_as: "say", reply_to: null });
    expect(kick.sent.map((m) => m.content)).toEqual(["after two 429s"]);
    expect(kick.requests.filter((r) => r === "POST /public/v1/chat")).toHaveLength(3);

    kick.expireAccessTokens();
    await plugin.send({ channel, text: "after a refresh", send_as: "say", reply_to: null });
    expect(stored).toHaveLength(2);
    expect(stored[1]?.refreshToken).toBe(kick.refreshToken);
    expect(kick.sent.at(-1)?.content).toBe("after a refresh");

    kick.rateLimitNext = 3;
    const burst = Array.from({ length: 5 }, (_, i) => plugin.send({ channel, text: `burst ${i}`, send_as: "say", reply_to: null }).then(() => "sent", (err: Error) => err.message));
    const outcomes = await Promise.all(burst);
    expect(outcomes.filter((o) => o.includes("send queue is full"))).toHaveLength(2);
    expect(outcomes.some((o) => o.includes("rate limit"))).toBe(true);
  });

  it("checks with the app token that Kick still signs with the trusted key, and says so when it does not", async () => {
    await start({});
    expect(host.health().find((h) => h.name === "kick")).toMatchObject({ status: "connected" });
    expect(kick.requests).toContain("GET /public/v1/public-key");
    await host.stop();
    kick.publicKeyPem = new KickWebhookSender().publicKeyPem;
    await start({});
    expect(host.health().find((h) => h.name === "kick")).toMatchObject({ status: "degraded", detail: expect.stringContaining("set OVATION_KICK_WEBHOOK_PUBLIC_KEY") });
  });

  it("a link revoked while running turns the status to failed with the fix at the next answer", async () => {
    await start({ subscribe: false });
    const channel = plugin.channels()[0];
    if (!channel) throw new Error("no channel");
    kick.revoke();
    await expect(plugin.send({ channel, text: "hello", send_as: "say", reply_to: null })).rejects.toThrow(/Kick refused the refresh token/);
    expect(host.health().find((h) => h.name === "kick")).toMatchObject({ status: "failed", detail: expect.stringContaining("reconnect Kick under Connections") });
  });

  it("a revoked link makes connect fail with the step that fixes it", async () => {
    kick.revoke();
    await expect(start({})).rejects.toThrow(/reconnect Kick under Connections/);
  });

  it("pusher mode: reads the chat socket without a public URL, answers a command, reconnects after a drop", { timeout: 30_000 }, async () => {
    pusher = await FakePusher.start();
    const p = pusher;
    await start({ mode: "pusher", chatroomId: socketFixtures.chatroomId, pusherUrl: p.url }, hug);
    await until(() => host.health().find((h) => h.name === "kick" && h.status === "connected" && h.detail?.includes("reading chatroom")), "the socket subscription");
    expect(host.health().find((h) => h.name === "kick")?.detail).toMatch(/unofficial chat socket; unavailable without webhooks: channel\.followed, kicks\.gifted/);
    expect(p.subscribed).toEqual([`chatrooms.${socketFixtures.chatroomId}.v2`]);
    expect(kick.subscriptions).toHaveLength(0);

    p.publish(socketFrame("chat-command"));
    await until(() => kick.sent[0], "the answer to the socket command");
    expect(kick.sent[0]?.content).toBe("Hugger sends a hug to SocketFriend <3");
    p.publish(socketFrame("gifted-subscriptions"));
    await until(() => alerts.find((a) => a.subscription.type === "gift-subscribe"), "the gift alert");

    p.sendRaw("{not json");
    p.publish(socketFrame("chat-without-sender"));
    await until(() => plugin.malformedCount === 1, "the malformed count");

    p.dropAll();
    await until(() => p.subscribed.length === 2, "the resubscription after the drop");
    await until(() => host.health().find((h) => h.name === "kick" && h.status === "connected" && h.detail?.includes("reading chatroom")), "connected again");
    p.publish(socketFrame("chat-message"));
    await until(() => room.some((e) => e.event === "message" && e.payload.id === "6b1c2d3e-sock-0001"), "chat after the reconnect");
  });
});
