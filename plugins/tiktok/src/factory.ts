import { definePlugin } from "@ovation/core/contracts";
import { ChannelPlugins } from "@ovation/core/plugin-kit";
import { tiktokSettingsSchema } from "./options.js";
import { TIKTOK_PLATFORM } from "./platform.js";
import { TIKTOK_PLUGIN_VERSION, TikTokPlugin } from "./plugin.js";

/**
 * The TikTok plugin factory (`OVATION_PLUGINS=tiktok`, plugin API 1.1): follows the LIVE of every
 * linked TikTok username whose streamer switched the bot on, one connection per channel.
 */
export const tiktokFactory = definePlugin({ id: "tiktok", settings: tiktokSettingsSchema, envPrefix: "OVATION_TIKTOK_" }, (settings) => {
  return new ChannelPlugins<TikTokPlugin>({
    metadata: {
      name: "tiktok",
      platform: "tiktok",
      version: TIKTOK_PLUGIN_VERSION,
      core: "^0.1.0",
      description: "TikTok LIVE comments, gifts, follows, subscriptions, shares and likes of every linked username (read-only)",
    },
    capabilities: { send: ["say"], moderation: { deleteMessage: false, timeout: false } },
    platform: TIKTOK_PLATFORM,
    create: (channel) => new TikTokPlugin({ ...settings, uniqueId: channel.username, channelId: channel.id }),
  });
});

export default tiktokFactory;
