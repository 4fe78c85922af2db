import { definePlugin } from "@ovation/core/contracts";
import type { PluginFactoryContext, ServedChannel } from "@ovation/core/contracts";
import { ChannelPlugins } from "@ovation/core/plugin-kit";
import { ProjectQuota } from "./api/quota.js";
import { YOUTUBE_ERROR_CODES, YouTubeError } from "./errors.js";
import { YOUTUBE_PLUGIN_VERSION, YouTubePlugin } from "./plugin.js";
import { YOUTUBE_DEFAULT_DAILY_QUOTA, youtubeSettingsSchema } from "./options.js";
import type { YouTubeSettings } from "./options.js";

/**
 * The YouTube plugin of a server (plugin API 1.1): serves every linked YouTube channel whose
 * streamer switched the bot on, each with its own Google tokens (every refresh written back). The
 * project's daily quota is shared fairly: each served channel gets an equal share, re-divided
 * whenever a channel comes or goes, and its status shows its own use. With several nodes (the
 * context's shared `quota`), the quota is divided among the installation's channels, not the
 * node's, and every node's use is counted together ({@link ProjectQuota}).
 */
export function youtubeChannelsPlugin(settings: YouTubeSettings, context: PluginFactoryContext): ChannelPlugins<YouTubePlugin> {
  const daily = settings.dailyQuota ?? YOUTUBE_DEFAULT_DAILY_QUOTA;
  let served = 0;
  // Each channel reads its share when it spends (see QuotaBudget's `share`).
  const share = () => Math.floor(daily / Math.max(1, served, project?.channels() ?? 0));
  const project = context.quota ? new ProjectQuota({ dailyUnits: daily, shared: context.quota }) : null;
  const plugins: ChannelPlugins<YouTubePlugin> = new ChannelPlugins<YouTubePlugin>({
    metadata: {
      name: "youtube",
      platform: "youtube",
      version: YOUTUBE_PLUGIN_VERSION,
      core: "^0.1.0",
      description: "YouTube live chat, Super Chats, memberships and subscribers of every linked channel (Data API v3)",
    },
    capabilities: { send: ["say"], moderation: { deleteMessage: true, timeout: false } },
    create: (channel) => youtubeChannel(settings, context, channel, daily, share, project),
    onServedChange: (count) => {
      served = count;
      project?.served(count);
    },
    classify: (error) => {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof YouTubeError && error.code === YOUTUBE_ERROR_CODES.unauthorized) return { state: "needs_reconnect", detail: "Reconnect YouTube: the link was revoked or has expired" };
      if (/(reconnect|link) youtube|invalid_grant/i.test(message)) return { state: "needs_reconnect", detail: "Reconnect YouTube: the link was revoked or has expired" };
      return { state: "failed", detail: message };
    },
  });
  return plugins;
}

function youtubeChannel(settings: YouTubeSettings, context: PluginFactoryContext, channel: ServedChannel, daily: number, share: () => number, project: ProjectQuota | null): YouTubePlugin {
  const tokens = context.credentials.tokens(channel.connection_id);
  if (!tokens?.refresh_token) throw new YouTubeError(YOUTUBE_ERROR_CODES.unauthorized, "No Google tokens for this channel: reconnect YouTube");
  return new YouTubePlugin(
    {
      ...settings,
      channelId: channel.id,
      tokens: { refreshToken: tokens.refresh_token, ...(tokens.access_token ? { accessToken: tokens.access_token, expiresAt: tokens.expires_at } : {}) },
      quota: { dailyUnits: daily, streamHours: settings.streamHours },
    },
    {
      onTokensRefreshed: (t) =>
        context.credentials.save(channel.connection_id, { access_token: t.accessToken, refresh_token: t.refreshToken, expires_at: t.expiresAt, scopes: tokens.scopes }),
      share,
      ...(project ? { project } : {}),
    },
  );
}

/**
 * The YouTube plugin factory (`OVATION_PLUGINS=youtube`): settings from `OVATION_YOUTUBE_<KEY>` (or
 * `plugins.youtube` of the config file); serves the linked channels the host gives it.
 */
export const youtubeFactory = definePlugin({ id: "youtube", settings: youtubeSettingsSchema, envPrefix: "OVATION_YOUTUBE_" }, (settings, context) => youtubeChannelsPlugin(settings, context));
