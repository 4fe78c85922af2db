import type { ChatChannel, ModerationTarget, OutgoingMessage, PlatformAction, PlatformActionResult } from "@ovation/core";

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
  /** The plugin's optional moderation part (what it declares, and the actions). */
  moderationTarget(plugin: string): ModerationTarget;
  /** A platform's own action (shoutout, poll) on a channel, when the plugin offers it. */
  platformAction?(plugin: string, channel: ChatChannel, action: PlatformAction): Promise<PlatformActionResult>;
}
