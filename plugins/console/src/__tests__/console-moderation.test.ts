import { PluginHost } from "@ovation/core";
import type { ChatChannel, ChatRoomEvent } from "@ovation/core";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { formatModeration } from "../console-client.js";
import { ConsolePlugin } from "../console-plugin.js";
import type { ConsoleModeration } from "../protocol.js";

const channel: ChatChannel = { id: "7", platform_id: "7", username: "streamer", avatar_url: "" };

describe("console moderation", () => {
  it("deletes, times out and bans through the host: consoles are told, the .chat room gets the events", async () => {
    const room: ChatRoomEvent[] = [];
    const host = new PluginHost({ logger: pino({ level: "silent" }), chatRoom: (event) => room.push(event) });
    const plugin = new ConsolePlugin();
    host.register(plugin);
    await host.connect("console");
    const seen: ConsoleModeration[] = [];
    const stop = plugin.onModeration("7", (action) => seen.push(action));
    await host.deleteMessage("console", channel, "m-1");
    await host.timeout("console", channel, "console-troll", 30, "auto-moderation: caps");
    await host.ban("console", channel, "console-troll", null);
    expect(seen.map((a) => formatModeration(a))).toEqual([
      "[moderation] message m-1 deleted",
      "[moderation] console-troll timed out for 30 s (auto-moderation: caps)",
      "[moderation] console-troll banned",
    ]);
    expect(room.map((e) => [e.event, e.payload])).toEqual([
      ["delete-message", { id: "m-1", channel: "7" }],
      ["clear-chat", { channel: "7", user_platform_id: "console-troll" }],
      ["clear-chat", { channel: "7", user_platform_id: "console-troll" }],
    ]);
    stop();
    await host.ban("console", channel, "x", null);
    expect(seen).toHaveLength(3);
    expect(host.moderationSupport("console")).toEqual({ deleteMessage: true, timeout: true, ban: true });
    await host.stop();
  });
});
