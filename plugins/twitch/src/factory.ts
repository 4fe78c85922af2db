import { definePlugin, definedKeys } from "@ovation/core/contracts";
import { twitchSettingsSchema } from "./options.js";
import { TwitchPlugin } from "./plugin.js";

/**
 * The Twitch plugin factory (`OVATION_PLUGINS=twitch`): serves every linked Twitch channel whose
 * streamer switched the bot on (plugin API 1.1), plus the configured `channels`. Created once the
 * server listens, after the first-run bootstrap, so a bare configured login can belong to the first user.
 */
export const twitchFactory = definePlugin(
  { id: "twitch", settings: twitchSettingsSchema, envPrefix: "OVATION_TWITCH_", createOn: "listen" },
  (settings, context) => {
    const channels = (settings.channels ?? []).map(({ login, userId }) => {
      const id = userId ?? context.firstUserId();
      if (id === null) throw new Error(`OVATION_TWITCH_CHANNELS: ${login} names no user and there is no user yet`);
      return { id: String(id), login };
    });
    const irc = settings.ircUrl ? new URL(settings.ircUrl) : null;
    return new TwitchPlugin(
      {
        ...settings,
        channels,
        ...(irc ? { irc: { server: irc.hostname, port: Number(irc.port || (irc.protocol === "wss:" ? 443 : 80)), secure: irc.protocol === "wss:" } } : {}),
        ...(settings.eventsubUrl ? { eventsub: { enabled: true, url: settings.eventsubUrl } } : {}),
      },
      {
        onTokensRefreshed: () =>
          context.logger.warn("the bot's Twitch token was refreshed; it is kept in memory until restart (update OVATION_TWITCH_TOKEN to keep it)"),
        credentials: context.credentials,
        ...definedKeys({ quota: context.quota }),
      },
    );
  },
);

export default twitchFactory;
