import { createHash } from "node:crypto";
import { definePlugin } from "@ovation/core/contracts";
import type { PluginFactory } from "@ovation/core/contracts";
import { YouTubePlugin, youtubeSettingsSchema } from "@ovation/plugin-youtube";
import type { GoogleTokens, YouTubeSettings } from "@ovation/plugin-youtube";
import type { OvationServices } from "../services.js";
import type { PlatformTokens } from "../store/connections.js";

/** YouTube plugin settings read from `OVATION_YOUTUBE_<KEY>` (see the plugin's README). */
export type YouTubeEnv = YouTubeSettings;

const sha256 = (value: string): string => createHash("sha256").update(value, "utf8").digest("hex");

/**
 * The YouTube plugin for one user: its tokens come from the user's YouTube connection (linked under
 * Connections) or, for a first start without a link, from `OVATION_YOUTUBE_REFRESH_TOKEN`. Every
 * refresh is written to the connection's stored tokens, so a restart uses the newest ones. Once the
 * plugin knows its channel, that channel is linked to the user (when the tokens came from the
 * environment) and the tokens are stored with the link.
 */
export function youtubePlugin(settings: YouTubeEnv, services: OvationServices): YouTubePlugin {
  const { users, connections } = services.repos;
  const userId = settings.user ?? users.list()[0]?.id;
  if (userId === undefined) throw new Error("OVATION_YOUTUBE_USER: there is no user yet to serve");
  const linked = connections.listForUser(userId).find((c) => c.platform === "youtube" && connections.tokensOf(c.id)?.refresh_token);
  const stored = linked ? connections.tokensOf(linked.id) : null;
  const envHash = settings.refreshToken ? sha256(settings.refreshToken) : undefined;
  // A new OVATION_YOUTUBE_REFRESH_TOKEN (different from the one the stored tokens grew from) wins.
  const useStored = stored !== null && stored.refresh_token !== null && (envHash === undefined || stored.env_hash === undefined || stored.env_hash === envHash);
  // Without tokens the plugin still registers: its failed connect tells the user to link YouTube.
  const refreshToken = useStored ? stored.refresh_token : settings.refreshToken;
  let connectionId = useStored && linked ? linked.id : null;
  let latest: PlatformTokens | null = null;
  const persist = (): void => {
    if (connectionId !== null && latest !== null) connections.saveTokens(connectionId, latest);
  };
  const plugin: YouTubePlugin = new YouTubePlugin(
    {
      channelId: String(userId),
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      ...(refreshToken
        ? { tokens: { refreshToken, ...(useStored && stored.access_token ? { accessToken: stored.access_token, expiresAt: stored.expires_at } : {}) } }
        : {}),
      ...(settings.apiUrl ? { apiUrl: settings.apiUrl } : {}),
      ...(settings.tokenUrl ? { tokenUrl: settings.tokenUrl } : {}),
      quota: {
        ...(settings.dailyQuota !== undefined ? { dailyUnits: settings.dailyQuota } : {}),
        ...(settings.streamHours !== undefined ? { streamHours: settings.streamHours } : {}),
      },
      ...(settings.offlinePollSeconds !== undefined ? { offlinePollSeconds: settings.offlinePollSeconds } : {}),
      ...(settings.subscribersPollSeconds !== undefined ? { subscribersPollSeconds: settings.subscribersPollSeconds } : {}),
    },
    {
      onTokensRefreshed: (tokens: GoogleTokens) => {
        latest = {
          access_token: tokens.accessToken,
          refresh_token: tokens.refreshToken,
          expires_at: tokens.expiresAt,
          scopes: stored?.scopes ?? [],
          ...(useStored ? (stored.env_hash ? { env_hash: stored.env_hash } : {}) : envHash ? { env_hash: envHash } : {}),
        };
        persist();
      },
      onChannel: (channel) => {
        if (connectionId === null) {
          connectionId = connections.upsert({ user_id: userId, platform: "youtube", platform_user_id: channel.platform_id, username: channel.username, avatar_url: channel.avatar_url || null }).id;
        }
        persist();
      },
    },
  );
  return plugin;
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
