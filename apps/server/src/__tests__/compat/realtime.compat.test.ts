import { describe, expect, test } from "vitest";
import { connect, join, nextEvent } from "../socket-helpers.js";
import { ChatProbe, useCompatServer } from "./fixture.js";

const probe = new ChatProbe();
const server = useCompatServer({ platforms: { env: {}, extra: [probe] }, chatHeartbeatMs: 50 });

describe("chat sockets (public .chat room)", () => {
  test("carry message, delete-message, clear-chat and ingress-event heartbeats {type, data}", async () => {
    const socket = await connect(server.url, {});
    try {
      const room = `${server.user.uuid}.kick.room-1.chat`;
      expect(await join(socket, room)).toEqual({ joined: room });
      const heartbeat = await nextEvent(socket, "ingress-event");
      expect(heartbeat).toEqual({ type: "heartbeat", data: { timestamp: expect.any(Number), room } });

      const message = nextEvent(socket, "message");
      probe.context?.emitChat(probe.event("c-1", "hello chat"));
      expect(await message).toMatchObject({ id: "c-1", message: "hello chat", channel: { platform_id: "room-1" } });

      const channel = probe.channels()[0];
      if (!channel) throw new Error("no channel");
      const deleted = nextEvent(socket, "delete-message");
      probe.context?.emitModeration({ type: "delete-message", channel, id: "c-1" });
      expect(await deleted).toMatchObject({ id: "c-1" });
      const cleared = nextEvent(socket, "clear-chat");
      probe.context?.emitModeration({ type: "clear-chat", channel, user_platform_id: null });
      expect(await cleared).toMatchObject({ channel: expect.any(String) });
    } finally {
      socket.close();
    }
  });
});

describe("non-alert notifications a plugin reports", () => {
  test("stream.online carries an empty list; a redemption carries the documented keys", async () => {
    const socket = await connect(server.url, { token: server.user.token });
    try {
      expect(await join(socket, `${server.user.uuid}.twitch.${server.twitchId}`)).toMatchObject({ joined: expect.any(String) });
      const online = nextEvent(socket, "notifysub");
      const condition = { platform: "kick", platform_id: "room-1" };
      probe.context?.emitNotification({
        subscription: { type: "stream.online", version: "1", condition },
        notification: { id: "s-1", created_at: "2026-11-21T05:00:00.000000Z" },
        event: [],
      });
      expect(await online).toMatchObject({ subscription: { type: "stream.online", condition }, event: [] });
      const redemption = {
        id: "r-1", name: "Viewer", message: "hi", status: "unfulfilled", user_id: "9", user_login: "viewer", user_name: "Viewer", user_input: "hi",
        broadcaster_id: "room-1", broadcaster_login: "ghost", broadcaster_name: "Ghost", reward_id: "w-1", reward_title: "Hydrate", reward_cost: 100, reward_prompt: "Drink",
      };
      const redeemed = nextEvent(socket, "notifysub");
      probe.context?.emitNotification({
        subscription: { type: "channel.channel_points_custom_reward_redemption.add", version: "1", condition },
        notification: { id: "s-2", created_at: "2026-11-21T05:00:01.000000Z" },
        event: redemption,
      });
      const received = await redeemed;
      expect(received.event).toEqual(redemption);
      expect(received.ovation).not.toHaveProperty("random");
    } finally {
      socket.close();
    }
  });
});
