import { definePlugin } from "@ovation/core/contracts";
import type { PluginFactory } from "@ovation/core/contracts";
import { YouTubePlugin, youtubeSettingsSchema } from "@ovation/plugin-youtube";
import type { YouTubeSettings } from "@ovation/plugin-youtube";
import type { OvationServices } from "../services.js";
import { linkedTokens } from "./linked-tokens.js";

/** YouTube plugin settings read from `OVATION_YOUTUBE_<KEY>` (see the plugin's README). */
export type YouTubeEnv = YouTubeSettings;

/**
 * The YouTube plugin for one user: its tokens come from the user's YouTube connection (linked under
 * Connections) or, for a first start without a link, from `OVATION_YOUTUBE_REFRESH_TOKEN`. Every
 * refresh is written to the connection's stored tokens, so a restart uses the newest ones. Once the
 * plugin knows its channel, that channel is linked to the user (when the tokens came from the
 * environment) and the tokens are stored with the link.
 */
export function youtubePlugin(settings: YouTubeEnv, services: OvationServices): YouTubePlugin {
  const tokens = linkedTokens(services, "youtube", settings);
  // Without tokens the plugin still registers: its failed connect tells the user to link YouTube.
  return new YouTubePlugin(
    {
      channelId: String(tokens.userId),
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      ...(tokens.refreshToken ? { tokens: { refreshToken: tokens.refreshToken, ...(tokens.access ?? {}) } } : {}),
      ...(settings.apiUrl ? { apiUrl: settings.apiUrl } : {}),
      ...(settings.tokenUrl ? { tokenUrl: settings.tokenUrl } : {}),
      quota: {
        ...(settings.dailyQuota !== undefined ? { dailyUnits: settings.dailyQuota } : {}),
        ...(settings.streamHours !== undefined ? { streamHours: settings.streamHours } : {}),
      },
      ...(settings.offlinePollSeconds !== undefined ? { offlinePollSeconds: settings.offlinePollSeconds } : {}),
      ...(settings.subscribersPollSeconds !== undefined ? { subscribersPollSeconds: settings.subscribersPollSeconds } : {}),
    },
    { onTokensRefreshed: (t) => tokens.refreshed(t), onChannel: (channel) => tokens.account(channel) },
  );
}

/**
 * The YouTube plugin factory (`OVATION_PLUGINS=youtube`): settings from `OVATION_YOUTUBE_<KEY>` (or
 * `plugins.youtube` of the config file), created once the server listens (after the first run) for
 * the server's `services`, whose connections store the Google tokens. Without services (the settings
 * check of `ovation plugins`) it only validates.
 */
export function youtubeFactory(services: OvationServices | null): PluginFactory {
  return definePlugin({ id: "youtube", settings: youtubeSettingsSchema, envPrefix: "OVATION_YOUTUBE_", createOn: "listen" }, (settings) => {
    if (!services) throw new Error("the youtube plugin runs only inside the server");
    return youtubePlugin(settings, services);
  });
}
