import { definePlugin } from "@ovation/core/contracts";
import { z } from "zod";
import { httpOriginSchema } from "@ovation/core/plugin-kit";
import { ChannelPlugins } from "@ovation/core/plugin-kit";
import { TIKTOK_PLATFORM } from "./platform.js";
import { TIKTOK_PLUGIN_VERSION, TikTokPlugin } from "./plugin.js";

const origin = httpOriginSchema.optional();
const number = () => z.coerce.number({ error: "must be a number" });

/**
 * Settings of the TikTok plugin, read from `OVATION_TIKTOK_<KEY>` or the `tiktok` section of the
 * config file: `signServerUrl`, `signApiKey`, `webUrl`, `webcastUrl`, `caCertificate`,
 * `likeWindowSeconds`, `offlinePollSeconds`. The LIVEs followed are those of the linked TikTok
 * accounts (by username) whose streamers switched the bot on.
 */
export const tiktokSettingsSchema = z.object({
  /** Removed: is no longer read: the LIVE of every TikTok username linked under Connections is followed */
  uniqueId: z.never({ error: "is no longer read: the LIVE of every TikTok username linked under Connections is followed" }).optional(),
  /** Removed: is no longer read: every streamer who links TikTok under Connections and switches the bot on is served */
  user: z.never({ error: "is no longer read: every streamer who links TikTok under Connections and switches the bot on is served" }).optional(),
  signServerUrl: origin,
  signApiKey: z.string().min(1).optional(),
  webUrl: origin,
  webcastUrl: origin,
  caCertificate: z.string().min(1).optional(),
  likeWindowSeconds: number().positive("must be greater than 0").max(3600, "must be at most 3600").optional(),
  offlinePollSeconds: number().positive("must be greater than 0").optional(),
});

/** Validated TikTok settings. */
export type TikTokSettings = z.output<typeof tiktokSettingsSchema>;

/**
 * The TikTok plugin factory (`OVATION_PLUGINS=tiktok`, plugin API 1.1): follows the LIVE of every
 * linked TikTok username whose streamer switched the bot on, one connection per channel.
 */
export const tiktokFactory = definePlugin({ id: "tiktok", settings: tiktokSettingsSchema, envPrefix: "OVATION_TIKTOK_" }, (settings) => {
  const options = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
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
    create: (channel) => new TikTokPlugin({ ...options, uniqueId: channel.username, channelId: channel.id }),
  });
});

export default tiktokFactory;
