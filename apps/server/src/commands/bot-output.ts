import type { ChatChannel, ModerationCapabilities, OutgoingMessage } from "@ovation/core";

/** A channel where a user's bot is present: which plugin serves it, on which platform. */
export interface BotChannel {
  plugin: string;
  platform: string;
  channel: ChatChannel;
}

/**
 * What the bot modules need from the platform plugins (the server implements it over the
 * PluginHost; tests may too). Kept apart so the modules' host does not reach up into plugins/.
 */
export interface BotOutput {
  /** The channels of a user (channel id = user id) served by plugins that can send. */
  channelsOf(channelId: string): BotChannel[];
  send(plugin: string, message: OutgoingMessage): Promise<void>;
  moderationSupport(plugin: string): Required<ModerationCapabilities>;
  deleteMessage(plugin: string, channel: ChatChannel, messageId: string): Promise<void>;
  timeout(plugin: string, channel: ChatChannel, userPlatformId: string, seconds: number, reason: string | null): Promise<void>;
  ban(plugin: string, channel: ChatChannel, userPlatformId: string, reason: string | null): Promise<void>;
}
