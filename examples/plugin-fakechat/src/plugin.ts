import { connect } from "node:net";
import type { Socket } from "node:net";
import { createInterface } from "node:readline";
import type {
  ChatChannel,
  ChatEvent,
  OutgoingMessage,
  PlatformDeclaration,
  PlatformPlugin,
  PluginCapabilities,
  PluginContext,
  PluginFactoryContext,
  PluginMetadata,
} from "@ovation/core/contracts";
import type { FakeChatSettings } from "./settings.js";
import type { ClientLine, ServerLine } from "./wire.js";

/** The FakeChat platform plugin: chat and follows in, the bot's answers out, over one TCP connection. */
export class FakeChatPlugin implements PlatformPlugin {
  readonly metadata: PluginMetadata = {
    name: "fakechat",
    platform: "fakechat",
    version: "1.0.0",
    core: "^0.1.0",
    description: "FakeChat chat and follows",
  };
  readonly capabilities: PluginCapabilities = { send: ["say", "reply"], moderation: { deleteMessage: false, timeout: false } };
  /** The platform: its display name and the one catalog alert type it emits, with a FakeChat text. */
  readonly platform: PlatformDeclaration = {
    name: "FakeChat",
    alerts: [
      {
        type: "follow",
        parameters: [{ name: "name", type: "string", default: "", example: "Someone", description: "Who followed", conditional: false }],
        default: { title: "{{name}} followed on FakeChat", subtitle: "Welcome to the chat!" },
      },
    ],
  };
  #socket: Socket | null = null;

  constructor(
    private readonly settings: FakeChatSettings,
    private readonly factoryContext: PluginFactoryContext,
  ) {}

  /** One channel, owned by `userId` (default the server's first user, read when asked). */
  channels(): readonly ChatChannel[] {
    const owner = this.settings.userId ?? this.factoryContext.firstUserId() ?? 1;
    return [{ id: String(owner), platform_id: this.settings.channel, username: this.settings.channel, avatar_url: "" }];
  }

  async connect(context: PluginContext): Promise<void> {
    const url = new URL(this.settings.url);
    context.setStatus("connecting");
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    this.#socket = socket;
    context.signal.addEventListener("abort", () => socket.destroy(), { once: true });
    socket.on("error", (error) => context.setStatus("failed", `FakeChat connection: ${error.message}`));
    socket.on("close", () => {
      if (!context.signal.aborted) context.setStatus("disconnected", "FakeChat closed the connection");
    });
    const hello = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`FakeChat at ${this.settings.url} did not answer the join`)), 10_000);
      socket.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      createInterface({ input: socket }).on("line", (text) => {
        let line: ServerLine;
        try {
          line = JSON.parse(text) as ServerLine;
        } catch {
          context.logger.warn("FakeChat sent a line that is not JSON; ignored");
          return;
        }
        if (line.op === "hello") {
          clearTimeout(timer);
          context.setStatus("connected");
          resolve();
        } else this.#receive(line, context);
      });
    });
    this.#write({ op: "join", channel: this.settings.channel });
    await hello;
  }

  async disconnect(): Promise<void> {
    this.#socket?.destroy();
    this.#socket = null;
  }

  async send(message: OutgoingMessage): Promise<void> {
    this.#write({ op: "say", channel: message.channel.platform_id, text: message.text, reply_to: message.send_as === "reply" ? message.reply_to : null });
  }

  #write(line: ClientLine): void {
    this.#socket?.write(`${JSON.stringify(line)}\n`);
  }

  #receive(line: Exclude<ServerLine, { op: "hello" }>, context: PluginContext): void {
    const channel = this.channels()[0];
    if (!channel || line.channel !== channel.platform_id) return;
    if (line.op === "message") {
      const event: ChatEvent = {
        id: line.id,
        type: "message",
        timestamp: line.ts,
        platform: "fakechat",
        user: {
          platform_id: line.user.id,
          username: line.user.name,
          avatar_url: "",
          color: null,
          badges: line.user.mod ? [{ type: "moderator", text: "Moderator", id: "moderator/1", count: null }] : [],
        },
        channel,
        message: line.text,
        fragments: [{ type: "text", text: line.text }],
        parent: null,
        attributes: { edited: false, accent: null, action: false, highlight: false },
      };
      context.emitChat(event);
      return;
    }
    context.emitNotification({
      subscription: { type: "follow", version: "1", condition: { platform: "fakechat", platform_id: channel.platform_id } },
      notification: { id: line.id, created_at: new Date(line.ts).toISOString() },
      event: { name: line.user.name },
    });
  }
}
