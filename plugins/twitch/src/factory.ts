import { definePlugin, definedKeys } from "@ovation/core/contracts";
import { z } from "zod";
import { httpUrlSchema } from "@ovation/core/plugin-kit";
import { TwitchPlugin } from "./plugin.js";

const channelEntry = z
  .string()
  .regex(/^[A-Za-z0-9_]{1,25}(:\d{1,12})?$/, "entries must be `login` or `login:<user id>`")
  .transform((entry) => {
    const [login = "", id] = entry.split(":");
    return { login: login.toLowerCase(), userId: id === undefined ? null : Number(id) };
  });

const optional = z.string().min(1).optional();
const wsUrl = z.string().regex(/^wss?:\/\/[^\s]+$/, "must be a ws:// or wss:// URL").optional();
const httpUrl = httpUrlSchema.optional();

/**
 * Settings of the Twitch plugin, read from `OVATION_TWITCH_<KEY>` (its env prefix) or the `twitch`
 * section of the config file: `username` + `token` (the operator's bot account, both or neither),
 * `clientId`, `clientSecret`, `refreshToken`, `joinsPer10s`, the endpoint overrides `ircUrl`,
 * `eventsubUrl`, `helixUrl`, `tokenUrl`, and optionally `channels` the operator serves besides the
 * linked ones (comma separated `login` or `login:<ovation user id>`; a bare login belongs to the first user).
 */
export const twitchSettingsSchema = z
  .object({
    channels: z
      .string()
      .transform((raw) => raw.split(",").map((s) => s.trim()).filter((s) => s !== ""))
      .pipe(z.array(channelEntry))
      .optional(),
    joinsPer10s: z.coerce.number({ error: "must be a number" }).int("must be a whole number").positive("must be greater than 0").max(2000, "must be at most 2000 (a verified bot's limit)").optional(),
    username: optional,
    token: optional,
    clientId: optional,
    clientSecret: optional,
    refreshToken: optional,
    ircUrl: wsUrl,
    eventsubUrl: wsUrl,
    helixUrl: httpUrl,
    tokenUrl: httpUrl,
  })
  .refine((s) => (s.username === undefined) === (s.token === undefined), {
    path: ["username"],
    message: "set both username and token for a bot, or neither for read-only chat",
  });

/** Validated Twitch settings. */
export type TwitchSettings = z.output<typeof twitchSettingsSchema>;

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
        channels,
        ...(settings.username && settings.token ? { username: settings.username, token: settings.token } : {}),
        ...definedKeys({ clientId: settings.clientId, clientSecret: settings.clientSecret, refreshToken: settings.refreshToken }),
        ...(irc ? { irc: { server: irc.hostname, port: Number(irc.port || (irc.protocol === "wss:" ? 443 : 80)), secure: irc.protocol === "wss:" } } : {}),
        ...(settings.eventsubUrl ? { eventsub: { enabled: true, url: settings.eventsubUrl } } : {}),
        ...definedKeys({ helixUrl: settings.helixUrl, tokenUrl: settings.tokenUrl, joinsPer10s: settings.joinsPer10s }),
      },
      {
        onTokensRefreshed: () =>
          context.logger.warn("the bot's Twitch token was refreshed; it is kept in memory until restart (update OVATION_TWITCH_TOKEN to keep it)"),
        credentials: context.credentials,
        ...(context.quota ? { quota: context.quota } : {}),
      },
    );
  },
);

export default twitchFactory;
