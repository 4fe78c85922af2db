import { randomUUID } from "node:crypto";
import { createConnection } from "node:net";
import type { Socket } from "node:net";
import type {
  ChatChannel,
  OutgoingMessage,
  PlatformPlugin,
  PluginCapabilities,
  PluginContext,
  PluginMetadata,
} from "@ovation/core";

/** Where the line-chat server is, and which Ovation channel its chat belongs to. */
export interface LineChatOptions {
  host: string;
  port: number;
  channel: ChatChannel;
}

/**
 * A plugin for "line chat", a tiny text protocol over TCP:
 *   server -> plugin  `MSG <message id> <user> <text...>`  a chat message
 *                     `DEL <message id>`                    a moderator deleted it
 *   plugin -> server  `SAY <text>` and `ME <text>`          the bot speaks
 */
export class LineChatPlugin implements PlatformPlugin {
  readonly metadata: PluginMetadata = { name: "line-chat", platform: "linechat", version: "1.0.0", core: "^0.1.0" };
  readonly capabilities: PluginCapabilities = {
    send: ["say", "action"], // the host turns reply/announce into say
    moderation: { deleteMessage: false, timeout: false },
  };
  readonly #options: LineChatOptions;
  #socket: Socket | null = null;

  constructor(options: LineChatOptions) {
    this.#options = options;
  }

  channels(): readonly ChatChannel[] {
    return [this.#options.channel];
  }

  connect(context: PluginContext): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ host: this.#options.host, port: this.#options.port });
      let buffer = "";
      socket.setEncoding("utf8");
      socket.once("connect", () => {
        this.#socket = socket;
        resolve();
      });
      socket.once("error", reject);
      socket.on("data", (chunk: string) => {
        buffer += chunk;
        let newline = buffer.indexOf("\n");
        while (newline !== -1) {
          this.#onLine(context, buffer.slice(0, newline).trim());
          buffer = buffer.slice(newline + 1);
          newline = buffer.indexOf("\n");
        }
      });
      socket.on("close", () => {
        if (!context.signal.aborted) context.setStatus("disconnected", "the line-chat server closed the connection");
      });
    });
  }

  async disconnect(): Promise<void> {
    this.#socket?.end();
    this.#socket = null;
  }

  async send(message: OutgoingMessage): Promise<void> {
    if (!this.#socket) throw new Error("line chat is not connected");
    const text = message.text.replace(/[\r\n]+/g, " "); // one message, one line: no injection
    this.#socket.write(`${message.send_as === "action" ? "ME" : "SAY"} ${text}\n`);
  }

  #onLine(context: PluginContext, line: string): void {
    const [kind, id, user, ...words] = line.split(" ");
    const channel = this.#options.channel;
    if (kind === "DEL" && id) {
      context.emitModeration({ type: "delete-message", channel, id });
      return;
    }
    if (kind !== "MSG" || !id || !user) return; // not ours to understand: ignore
    const text = words.join(" ");
    const result = context.emitChat({
      id,
      type: "message",
      timestamp: Date.now(),
      platform: "linechat",
      user: { platform_id: user.toLowerCase(), username: user, avatar_url: "", color: null, badges: [] },
      channel,
      message: text,
      fragments: text === "" ? [] : [{ type: "text", text }],
      parent: null,
      attributes: { edited: false, accent: null, action: false, highlight: false },
      platform_data: { trace: randomUUID() },
    });
    if (!result.accepted && result.reason === "invalid") context.logger.warn(result.message);
  }
}
