import type { ChatChannel, ChatEvent } from "../../chat/event.js";
import type { NotifySub } from "../../notifications/notifysub.js";
import type { OutgoingMessage, PlatformPlugin, PluginCapabilities, PluginContext, PluginMetadata } from "../contract.js";

/** A channel of the test platform. */
export const channel: ChatChannel = { id: "user-1", platform_id: "c1", username: "streamer", avatar_url: "" };

/** A valid chat event of the test platform. */
export function chatEvent(id: string, message = "!hello", platform = "twitch"): ChatEvent {
  return {
    id,
    type: "message",
    timestamp: 1_700_000_000_000,
    platform,
    user: { platform_id: "u1", username: "viewer", avatar_url: "", color: null, badges: [] },
    channel,
    message,
    fragments: [{ type: "text", text: message }],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}

/** A valid NotifySub notification of the test platform. */
export function notification(id: string, platform = "twitch"): NotifySub {
  return {
    subscription: { type: "follow", version: "1", condition: { platform, platform_id: "c1" } },
    notification: { id, created_at: "2026-11-21T04:30:00.000000Z" },
    event: { name: "Alice" },
    ovation: { template: null, test: false },
  };
}

/** A plugin driven by the test: it keeps the context it is given and records what it is asked to send. */
export class TestPlugin implements PlatformPlugin {
  metadata: PluginMetadata = { name: "test", platform: "twitch", version: "1.0.0", core: "^0.1.0" };
  capabilities: PluginCapabilities = { send: ["say", "reply"], moderation: { deleteMessage: false, timeout: false } };
  context: PluginContext | null = null;
  sent: OutgoingMessage[] = [];
  connectError: Error | null = null;
  disconnects = 0;

  channels(): readonly ChatChannel[] {
    return [channel];
  }

  async connect(context: PluginContext): Promise<void> {
    if (this.connectError) throw this.connectError;
    this.context = context;
  }

  async disconnect(): Promise<void> {
    this.disconnects++;
  }

  async send(message: OutgoingMessage): Promise<void> {
    this.sent.push(message);
  }
}
