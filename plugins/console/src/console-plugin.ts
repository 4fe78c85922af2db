import type {
  ChatChannel,
  EmitResult,
  OutgoingMessage,
  PlatformPlugin,
  PluginCapabilities,
  PluginContext,
  PluginMetadata,
} from "@ovation/core/contracts";
import { consoleChatEvent } from "./console-event.js";
import type { ConsoleSpeaker } from "./console-event.js";
import type { ConsoleModeration, ConsoleOutput } from "./protocol.js";

/** The plugin's version (kept equal to package.json). */
export const CONSOLE_PLUGIN_VERSION = "0.1.0";

/** One open console: typed lines go in, the bot's answers to its channel come out. */
export interface ConsoleSession {
  readonly channel: ChatChannel;
  readonly speaker: ConsoleSpeaker;
  /** Emits a typed line as a chat message of the session's channel. */
  say(text: string): EmitResult & { id?: string };
  /** Stops delivering answers to this session. */
  close(): void;
}

/**
 * The zero-setup platform: no account, no network of its own. The host's transport (the server's
 * `/console` socket namespace) opens a session per connected console; typed lines become chat
 * messages of the user's own channel on the `ovation` platform, and the bot's answers to that
 * channel go back to every console open on it.
 */
export class ConsolePlugin implements PlatformPlugin {
  readonly metadata: PluginMetadata = {
    name: "console",
    platform: "ovation",
    version: CONSOLE_PLUGIN_VERSION,
    core: "^0.1.0",
    description: "A local chat console: type chat messages, see the bot's answers",
  };
  readonly capabilities: PluginCapabilities = {
    send: ["say", "reply", "action", "announce"],
    moderation: { deleteMessage: true, timeout: true, ban: true },
  };

  readonly #outputs = new Map<string, Set<(output: ConsoleOutput) => void>>();
  readonly #moderationListeners = new Map<string, Set<(action: ConsoleModeration) => void>>();
  readonly #channels = new Map<string, ChatChannel>();
  #context: PluginContext | null = null;

  channels(): readonly ChatChannel[] {
    return [...this.#channels.values()];
  }

  async connect(context: PluginContext): Promise<void> {
    this.#context = context;
    context.setStatus("connected", null);
  }

  async disconnect(): Promise<void> {
    this.#context = null;
    this.#outputs.clear();
    this.#moderationListeners.clear();
  }

  async send(message: OutgoingMessage): Promise<void> {
    const output: ConsoleOutput = { text: message.text, send_as: message.send_as, reply_to: message.reply_to };
    for (const deliver of this.#outputs.get(message.channel.id) ?? []) deliver(output);
  }

  /** Deletes a message: every console on the channel is told, and the `.chat` room gets `delete-message`. */
  async deleteMessage(channel: ChatChannel, messageId: string): Promise<void> {
    this.#moderate(channel, { action: "delete", message_id: messageId, user_platform_id: null, seconds: null, reason: null });
    this.#context?.emitModeration({ type: "delete-message", channel, id: messageId });
  }

  /** Times a user out: the consoles are told, and the `.chat` room gets `clear-chat` for that user. */
  async timeout(channel: ChatChannel, userPlatformId: string, seconds: number, reason: string | null): Promise<void> {
    this.#moderate(channel, { action: "timeout", message_id: null, user_platform_id: userPlatformId, seconds, reason });
    this.#context?.emitModeration({ type: "clear-chat", channel, user_platform_id: userPlatformId });
  }

  /** Bans a user: the consoles are told, and the `.chat` room gets `clear-chat` for that user. */
  async ban(channel: ChatChannel, userPlatformId: string, reason: string | null): Promise<void> {
    this.#moderate(channel, { action: "ban", message_id: null, user_platform_id: userPlatformId, seconds: null, reason });
    this.#context?.emitModeration({ type: "clear-chat", channel, user_platform_id: userPlatformId });
  }

  /** Listens to the moderation actions taken on a channel (the `/console` namespace forwards them as `moderation`). */
  onModeration(channelId: string, listener: (action: ConsoleModeration) => void): () => void {
    let listeners = this.#moderationListeners.get(channelId);
    if (!listeners) {
      listeners = new Set();
      this.#moderationListeners.set(channelId, listeners);
    }
    listeners.add(listener);
    const set = listeners;
    return () => set.delete(listener);
  }

  #moderate(channel: ChatChannel, action: ConsoleModeration): void {
    for (const listener of this.#moderationListeners.get(channel.id) ?? []) listener(action);
  }

  /**
   * Opens a console on `channel` for `speaker`; `onOutput` receives the bot's answers to that channel.
   * Lines said before the plugin is connected are refused (`reason: "stopped"`).
   */
  openSession(channel: ChatChannel, speaker: ConsoleSpeaker, onOutput: (output: ConsoleOutput) => void): ConsoleSession {
    this.#channels.set(channel.id, channel);
    let outputs = this.#outputs.get(channel.id);
    if (!outputs) {
      outputs = new Set();
      this.#outputs.set(channel.id, outputs);
    }
    outputs.add(onOutput);
    const set = outputs;
    return {
      channel,
      speaker,
      say: (text) => {
        const context = this.#context;
        if (!context) return { accepted: false, reason: "stopped", message: "the console plugin is not connected" };
        const event = consoleChatEvent(channel, speaker, text);
        const result = context.emitChat(event);
        return result.accepted ? { ...result, id: event.id } : result;
      },
      close: () => {
        set.delete(onOutput);
      },
    };
  }
}
