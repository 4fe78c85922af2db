import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { PluginHost, chatEventSchema } from "@ovation/core";
import type { ChatChannel, ChatRoomEvent } from "@ovation/core";
import { pino } from "pino";
import { Server } from "socket.io";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleChatEvent, consoleFragments } from "../console-event.js";
import { runConsoleChat } from "../console-client.js";
import { ConsolePlugin } from "../console-plugin.js";
import { CONSOLE_NAMESPACE } from "../protocol.js";
import type { ConsoleAuth, ConsoleBadge, ConsoleLineResult } from "../protocol.js";

const logger = pino({ level: "silent" });
const channel: ChatChannel = { id: "7", platform_id: "7", username: "streamer", avatar_url: "" };

describe("console chat events", () => {
  it("are valid chat events; the owner is the broadcaster, --as names a viewer", () => {
    const owner = chatEventSchema.parse(consoleChatEvent(channel, { name: "streamer", owner: true, badges: [] }, "!hello"));
    expect(owner.user).toMatchObject({ platform_id: "7", username: "streamer" });
    expect(owner.user.badges.map((b) => b.type)).toEqual(["broadcaster"]);
    const viewer = chatEventSchema.parse(consoleChatEvent(channel, { name: "Alice", owner: false, badges: ["moderator"] }, "hi @Bob!"));
    expect(viewer.user).toMatchObject({ platform_id: "console-alice", username: "Alice" });
    expect(viewer.user.badges).toEqual([{ type: "moderator", text: "Moderator", id: "moderator/1", count: null }]);
    expect(viewer.platform).toBe("ovation");
  });

  it("split mentions out of the text", () => {
    expect(consoleFragments("!hug @Alice now")).toEqual([
      { type: "text", text: "!hug " },
      { type: "mention", text: "@Alice" },
      { type: "text", text: " now" },
    ]);
  });
});

describe("console plugin and client over socket.io", () => {
  let io: Server;
  let url: string;
  let host: PluginHost;
  const room: ChatRoomEvent[] = [];
  const plugin = new ConsolePlugin();

  beforeAll(async () => {
    // The bot: answers !hello with a reply, !dance with an action.
    host = new PluginHost({
      logger,
      chatRoom: (event) => void room.push(event),
      runtime: (event) => {
        if (event.message === "!hello") return [{ text: `Hello ${event.user.username}!`, send_as: "reply" }];
        if (event.message === "!dance") return [{ text: "dances", send_as: "action" }];
        return [];
      },
    });
    host.register(plugin);
    await host.start();
    const http = createServer();
    io = new Server(http);
    // A stand-in for the server's namespace: token "good" is user 7.
    io.of(CONSOLE_NAMESPACE).use((socket, next) => {
      const auth = socket.handshake.auth as ConsoleAuth;
      next(auth.token === "good" ? undefined : new Error("invalid token (OVATION_ERR_AUTH_UNAUTHENTICATED)"));
    });
    io.of(CONSOLE_NAMESPACE).on("connection", (socket) => {
      const auth = socket.handshake.auth as ConsoleAuth;
      const name = auth.as ?? "streamer";
      const session = plugin.openSession(channel, { name, owner: auth.as === undefined, badges: (auth.badges ?? []) as ConsoleBadge[] }, (output) =>
        socket.emit("say", output),
      );
      socket.on("line", (text: string, ack: (result: ConsoleLineResult) => void) => {
        const result = session.say(text);
        ack(result.accepted ? { accepted: true, id: result.id ?? "" } : { accepted: false, message: result.message });
      });
      socket.on("disconnect", () => session.close());
      socket.emit("ready", { channel: "streamer", as: name, badges: auth.badges ?? [] });
    });
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await host.stop();
    await new Promise<void>((resolve) => io.close(() => resolve()));
  });

  async function chat(auth: ConsoleAuth, lines: string[]) {
    const input = new PassThrough();
    const output = new PassThrough();
    const errors = new PassThrough();
    let out = "";
    let err = "";
    output.on("data", (c: Buffer) => (out += c.toString()));
    errors.on("data", (c: Buffer) => (err += c.toString()));
    const status = runConsoleChat({ url, auth, input, output, errors, lingerMs: 300 });
    for (const line of lines) input.write(`${line}\n`);
    input.end();
    return { status: await status, out, err };
  }

  it("sends typed lines as chat and prints the bot's answers", async () => {
    const result = await chat({ token: "good", as: "Alice", badges: ["moderator"] }, ["!hello", "just chatting", "!dance"]);
    expect(result.status).toBe(0);
    expect(result.out).toContain("Chatting in streamer as Alice [moderator].");
    expect(result.out).toContain("bot (reply): Hello Alice!");
    expect(result.out).toContain("* bot dances");
    expect(result.err).toBe("");
    const messages = room.filter((e) => e.event === "message").map((e) => (e.event === "message" ? e.payload.message : ""));
    expect(messages).toEqual(expect.arrayContaining(["!hello", "just chatting", "!dance"]));
  });

  it("reports a refused token and exits with status 1", async () => {
    const result = await chat({ token: "bad" }, ["!hello"]);
    expect(result.status).toBe(1);
    expect(result.err).toContain("invalid token (OVATION_ERR_AUTH_UNAUTHENTICATED)");
  });
});
