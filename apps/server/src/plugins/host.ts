import { PluginHost } from "@ovation/core";
import type { PlatformPlugin } from "@ovation/core";
import { ConsolePlugin } from "@ovation/plugin-console";
import { TwitchPlugin } from "@ovation/plugin-twitch";
import type { FastifyPluginAsync } from "fastify";
import type { Server } from "socket.io";
import type { OvationServices } from "../services.js";
import { deliverNotification, publishChatRoomEvent } from "./chat-routing.js";
import { attachConsoleNamespace } from "./console-namespace.js";
import { loadPluginSettings } from "./plugin-config.js";
import type { TwitchEnv } from "./plugin-config.js";
import { youtubePlugin } from "./youtube-wiring.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The platform plugins of this server (health, sends, lookups). */
    platformPlugins: PluginHost;
  }
}

/** Options of {@link platformPlugins}. */
export interface PlatformPluginsOptions {
  /** Where `OVATION_PLUGINS` and `OVATION_TWITCH_*` are read (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Plugin instances to load besides the configured ones (embedding, tests). */
  extra?: readonly PlatformPlugin[];
}

function twitchPlugin(settings: TwitchEnv, services: OvationServices): TwitchPlugin {
  const firstUser = services.repos.users.list()[0];
  const channels = settings.channels.map(({ login, userId }) => {
    const id = userId ?? firstUser?.id;
    if (id === undefined) throw new Error(`OVATION_TWITCH_CHANNELS: ${login} names no user and there is no user yet`);
    return { id: String(id), login };
  });
  const irc = settings.ircUrl ? new URL(settings.ircUrl) : null;
  return new TwitchPlugin(
    {
      channels,
      ...(settings.username && settings.token ? { username: settings.username, token: settings.token } : {}),
      ...(settings.clientId ? { clientId: settings.clientId } : {}),
      ...(settings.clientSecret ? { clientSecret: settings.clientSecret } : {}),
      ...(settings.refreshToken ? { refreshToken: settings.refreshToken } : {}),
      ...(irc ? { irc: { server: irc.hostname, port: Number(irc.port || (irc.protocol === "wss:" ? 443 : 80)), secure: irc.protocol === "wss:" } } : {}),
      ...(settings.eventSubUrl ? { eventsub: { enabled: true, url: settings.eventSubUrl } } : {}),
      ...(settings.helixUrl ? { helixUrl: settings.helixUrl } : {}),
      ...(settings.tokenUrl ? { tokenUrl: settings.tokenUrl } : {}),
    },
    {
      onTokensRefreshed: () =>
        services.logger.warn("Twitch token refreshed; it is kept in memory until restart (update OVATION_TWITCH_TOKEN to keep it)"),
    },
  );
}

/**
 * The server's platform plugins: loads those named in `OVATION_PLUGINS` (default `console`) and
 * wires a {@link PluginHost} to the command runtime (chat -> answers -> plugin send), the alert hub
 * (notifications -> alert log -> rooms) and the public `.chat` rooms. The console is served on the
 * socket namespace `/console`; Twitch connects once the server listens (after the first-run
 * bootstrap, so a bare channel login can belong to the first user).
 */
export function platformPlugins(options: PlatformPluginsOptions = {}): FastifyPluginAsync {
  const register: FastifyPluginAsync = async (app) => {
    const settings = loadPluginSettings(options.env ?? process.env);
    const services = app.ovation;
    const logger = services.logger.child({ area: "plugins" });
    const host: PluginHost = new PluginHost({
      logger,
      runtime: async (event) => {
        const action = await services.commands.runtime.handle(event);
        return action ? [action] : [];
      },
      alerts: (notification, source) => deliverNotification(services, logger, host.get(source.name), notification),
      chatRoom: (event) => publishChatRoomEvent(services, event),
    });
    if (settings.plugins.includes("console")) {
      const consolePlugin = new ConsolePlugin();
      host.register(consolePlugin);
      attachConsoleNamespace(services.io as unknown as Server, consolePlugin, services);
    }
    for (const plugin of options.extra ?? []) host.register(plugin);
    app.decorate("platformPlugins", host);

    app.addHook("onReady", async () => {
      await host.start();
    });
    app.addHook("onListen", async () => {
      if (!settings.twitch || host.names().includes("twitch")) return;
      try {
        host.register(twitchPlugin(settings.twitch, services));
        await host.connect("twitch");
      } catch (err) {
        logger.error({ err }, "the twitch plugin did not start; see its health for why");
      }
    });
    app.addHook("onListen", async () => {
      if (!settings.youtube || host.names().includes("youtube")) return;
      try {
        host.register(youtubePlugin(settings.youtube, services));
        await host.connect("youtube");
      } catch (err) {
        logger.error({ err }, "the youtube plugin did not start; see its health for why");
      }
    });
    app.addHook("preClose", async () => {
      await host.stop();
    });
  };
  // Like fastify-plugin: the decoration and hooks belong to the app, not to an encapsulated child.
  (register as unknown as Record<symbol, boolean>)[Symbol.for("skip-override")] = true;
  return register;
}
