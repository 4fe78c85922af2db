import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { NotifySub } from "../../notifications/notifysub.js";
import type { ChatEvent } from "../../chat/event.js";
import type { ChatRoomEvent, HostAction } from "../host.js";
import { PluginHost } from "../host.js";
import { PluginError } from "../plugin-errors.js";
import { TestPlugin, channel, chatEvent, notification } from "./test-plugin.js";

const logger = pino({ level: "silent" });

function catchError(fn: () => unknown): PluginError {
  try {
    fn();
  } catch (err) {
    if (err instanceof PluginError) return err;
    throw err;
  }
  throw new Error("expected a PluginError");
}

describe("PluginHost registration", () => {
  it("names the invalid metadata field and rule", () => {
    const host = new PluginHost({ logger });
    const plugin = new TestPlugin();
    plugin.metadata = { ...plugin.metadata, name: "Bad Name", core: "banana" };
    const err = catchError(() => host.register(plugin));
    expect(err.code).toBe("OVATION_ERR_PLUGIN_METADATA_INVALID");
    expect(err.message).toContain("metadata.name");
    expect(err.message).toContain("metadata.core: must be a semver range");
  });

  it("refuses a plugin built for another core version", () => {
    const host = new PluginHost({ logger, coreVersion: "0.1.0" });
    const plugin = new TestPlugin();
    plugin.metadata = { ...plugin.metadata, core: "^2.0.0" };
    const err = catchError(() => host.register(plugin));
    expect(err.code).toBe("OVATION_ERR_PLUGIN_CORE_VERSION");
    expect(err.message).toBe("Plugin test needs @ovation/core ^2.0.0, but this is 0.1.0");
    expect(() => new PluginHost({ logger, coreVersion: "2.3.0" }).register(plugin)).not.toThrow();
  });

  it("refuses capabilities without say, and declared moderation without its method", () => {
    const host = new PluginHost({ logger });
    const plugin = new TestPlugin();
    plugin.capabilities = { send: ["reply"], moderation: { deleteMessage: true, timeout: false } };
    const err = catchError(() => host.register(plugin));
    expect(err.message).toContain("capabilities.send: must include 'say' (or be empty for a read-only plugin)");
    const other = new TestPlugin();
    other.capabilities = { send: ["say"], moderation: { deleteMessage: true, timeout: false } };
    expect(catchError(() => host.register(other)).message).toContain("deleteMessage: capabilities.moderation.deleteMessage is true");
  });

  it("refuses a second plugin of the same name", () => {
    const host = new PluginHost({ logger });
    host.register(new TestPlugin());
    expect(catchError(() => host.register(new TestPlugin())).code).toBe("OVATION_ERR_PLUGIN_DUPLICATE");
    expect(catchError(() => host.get("nope")).code).toBe("OVATION_ERR_PLUGIN_NOT_FOUND");
  });
});

describe("PluginHost routing", () => {
  async function started(runtime?: (event: ChatEvent) => HostAction[]) {
    const room: ChatRoomEvent[] = [];
    const alerts: NotifySub[] = [];
    const host = new PluginHost({
      logger,
      chatRoom: (event) => room.push(event),
      alerts: (n) => void alerts.push(n),
      ...(runtime ? { runtime } : {}),
    });
    const plugin = new TestPlugin();
    host.register(plugin);
    await host.start();
    const context = plugin.context;
    if (!context) throw new Error("plugin was not connected");
    return { host, plugin, context, room, alerts };
  }

  it("routes chat to the chat room and the runtime, and the answers back through the plugin", async () => {
    const seen: string[] = [];
    const { host, plugin, context, room } = await started((event) => {
      seen.push(event.message);
      return [
        { text: `  hi ${event.user.username}  `, send_as: "reply" },
        { text: "big news", send_as: "announcement" },
        { text: "   ", send_as: "say" },
      ];
    });
    expect(context.emitChat(chatEvent("m1"))).toEqual({ accepted: true });
    await host.idle();
    expect(seen).toEqual(["!hello"]);
    expect(room.map((e) => [e.event, e.payload])).toEqual([["message", chatEvent("m1")]]);
    // announce is not declared by this plugin: it falls back to say.
    expect(plugin.sent).toEqual([
      { channel, text: "hi viewer", send_as: "reply", reply_to: "m1" },
      { channel, text: "big news", send_as: "say", reply_to: null },
    ]);
    expect(host.health()[0]?.counters).toMatchObject({ chat: 1, sent: 2, sendFailures: 0 });
  });

  it("drops a repeated message id and refuses a malformed event with its path", async () => {
    const { host, context, room } = await started();
    expect(context.emitChat(chatEvent("m1")).accepted).toBe(true);
    expect(context.emitChat(chatEvent("m1"))).toMatchObject({ accepted: false, reason: "duplicate" });
    const bad = { ...chatEvent("m2"), timestamp: 1.5 } as ChatEvent;
    const result = context.emitChat(bad);
    expect(result).toMatchObject({ accepted: false, reason: "invalid" });
    expect(result.accepted ? "" : result.message).toContain("event.timestamp");
    const wrong = context.emitChat(chatEvent("m3", "hi", "kick"));
    expect(wrong.accepted ? "" : wrong.message).toContain("event.platform: must be twitch, got kick");
    expect(room).toHaveLength(1);
    expect(host.health()[0]?.counters).toMatchObject({ chat: 1, duplicates: 1, rejected: 2 });
  });

  it("routes notifications to the alert log once, and refuses another platform's", async () => {
    const { host, context, alerts } = await started();
    expect(context.emitNotification(notification("n1")).accepted).toBe(true);
    expect(context.emitNotification(notification("n1")).accepted).toBe(false);
    expect(context.emitNotification(notification("n2", "youtube"))).toMatchObject({ accepted: false, reason: "invalid" });
    await host.idle();
    expect(alerts.map((n) => n.notification.id)).toEqual(["n1"]);
  });

  it("publishes moderation to the chat room", async () => {
    const { context, room } = await started();
    expect(context.emitModeration({ type: "delete-message", channel, id: "m9" }).accepted).toBe(true);
    expect(context.emitModeration({ type: "clear-chat", channel, user_platform_id: null }).accepted).toBe(true);
    expect(context.emitModeration({ type: "clear-chat", channel, user_platform_id: "u7" }).accepted).toBe(true);
    expect(context.emitModeration({ type: "delete-message", channel, id: "" })).toMatchObject({ accepted: false, reason: "invalid" });
    expect(room.map((e) => [e.event, e.payload])).toEqual([
      ["delete-message", { id: "m9", channel: "user-1" }],
      ["clear-chat", { channel: "user-1" }],
      ["clear-chat", { channel: "user-1", user_platform_id: "u7" }],
    ]);
  });

  it("refuses moderation actions the plugin does not declare", async () => {
    const { host } = await started();
    await expect(host.deleteMessage("test", channel, "m1")).rejects.toMatchObject({ code: "OVATION_ERR_PLUGIN_UNSUPPORTED" });
    await expect(host.timeout("test", channel, "u1", 60)).rejects.toMatchObject({ code: "OVATION_ERR_PLUGIN_UNSUPPORTED" });
  });

  it("reports a failed connect in health and refuses emits after stop", async () => {
    const host = new PluginHost({ logger });
    const plugin = new TestPlugin();
    plugin.connectError = new Error("bad token");
    host.register(plugin);
    const health = await host.start();
    expect(health[0]).toMatchObject({ status: "failed", detail: "bad token" });
    plugin.connectError = null;
    await host.connect("test");
    expect(host.health()[0]?.status).toBe("connected");
    const context = plugin.context;
    await host.stop();
    expect(plugin.disconnects).toBe(1);
    expect(context?.signal.aborted).toBe(true);
    expect(context?.emitChat(chatEvent("late"))).toMatchObject({ accepted: false, reason: "stopped" });
    expect(host.health()[0]?.status).toBe("disconnected");
  });

  it("does not run the bot for a read-only plugin, and refuses to send through it", async () => {
    let runs = 0;
    const room: ChatRoomEvent[] = [];
    const host = new PluginHost({ logger, chatRoom: (e) => void room.push(e), runtime: () => (runs++, [{ text: "hi", send_as: "say" }]) });
    const plugin = new TestPlugin();
    plugin.capabilities = { send: [], moderation: { deleteMessage: false, timeout: false } };
    host.register(plugin);
    await host.start();
    expect(plugin.context?.emitChat(chatEvent("r1")).accepted).toBe(true);
    await host.idle();
    expect(runs).toBe(0);
    expect(room).toHaveLength(1);
    await expect(host.send("test", { channel, text: "x", send_as: "say", reply_to: null })).rejects.toMatchObject({
      code: "OVATION_ERR_PLUGIN_UNSUPPORTED",
    });
  });

  it("keeps routing when the runtime throws", async () => {
    const { host, plugin, context } = await started((event) => {
      if (event.id === "boom") throw new Error("template crashed");
      return [{ text: "ok", send_as: "say" }];
    });
    context.emitChat(chatEvent("boom"));
    context.emitChat(chatEvent("fine"));
    await host.idle();
    expect(plugin.sent.map((m) => m.text)).toEqual(["ok"]);
  });
});
