import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo, Socket } from "node:net";
import { PluginHost } from "@ovation/core";
import type { ChatRoomEvent } from "@ovation/core";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineChatPlugin } from "./line-chat-plugin.js";

// The plugin of docs/writing-a-plugin.md, run for real against a line-chat server on loopback.
describe("the guide's line-chat plugin", () => {
  const server = createServer();
  let client: Socket | null = null;
  let received = "";

  beforeAll(async () => {
    server.on("connection", (socket) => {
      client = socket;
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (received += chunk));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
  });
  afterAll(async () => {
    client?.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("turns lines into chat, answers through the bot and relays deletions", async () => {
    const room: ChatRoomEvent[] = [];
    const host = new PluginHost({
      logger: pino({ level: "silent" }),
      chatRoom: (event) => void room.push(event),
      runtime: (event) => (event.message === "!ping" ? [{ text: "pong\r\nSAY injected", send_as: "reply" }, { text: "waves", send_as: "action" }] : []),
    });
    const plugin = new LineChatPlugin({
      host: "127.0.0.1",
      port: (server.address() as AddressInfo).port,
      channel: { id: "1", platform_id: "room-1", username: "streamer", avatar_url: "" },
    });
    host.register(plugin);
    await host.start();
    expect(host.health()[0]?.status).toBe("connected");
    const deadline = Date.now() + 10_000;
    while (!client && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    client?.write("MSG m1 Alice !ping\nnonsense line\nMSG m1 Alice !ping\nDEL m1\n");
    while (!received.includes("ME waves") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await host.idle();
    expect(received).toBe("SAY pong SAY injected\nME waves\n");
    expect(room.map((e) => e.event)).toEqual(["message", "delete-message"]);
    expect(host.health()[0]?.counters).toMatchObject({ chat: 1, duplicates: 1, moderation: 1 });
    await host.stop();
  });

  it("is shown in the guide exactly as it is tested", () => {
    const guide = readFileSync(new URL("../../../../../docs/writing-a-plugin.md", import.meta.url), "utf8");
    const code = readFileSync(new URL("./line-chat-plugin.ts", import.meta.url), "utf8");
    const block = /```ts file=line-chat-plugin\.ts\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(block).toBe(code);
  });
});
