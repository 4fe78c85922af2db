import { PluginHost } from "@ovation/core/plugins";
import type { PlatformPlugin, PluginFactory, PluginFactoryContext } from "@ovation/core/contracts";
import { ConsolePlugin } from "@ovation/plugin-console";
import { KickPlugin } from "@ovation/plugin-kick";
import type { FastifyPluginAsync } from "fastify";
import type { Server } from "socket.io";
import { deliverNotification, publishChatRoomEvent } from "./chat-routing.js";
import { attachConsoleNamespace } from "./console-namespace.js";
import { kickWebhookRoute } from "./kick-wiring.js";
import { pluginBotOutput } from "./plugin-bot-output.js";
import { loadPlugins } from "./plugin-loader.js";
import type { LoadedPlugin } from "./plugin-loader.js";
import { PluginReports } from "./plugin-reports.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The platform plugins of this server (health, sends, lookups, platform registry). */
    platformPlugins: PluginHost;
    /** What was loaded from `OVATION_PLUGINS` and how each plugin is doing (`ovation plugins`). */
    pluginReports: PluginReports;
  }
}

/** Options of {@link platformPlugins}. */
export interface PlatformPluginsOptions {
  /** Where `OVATION_PLUGINS`, the plugins' settings and `OVATION_CONFIG_FILE` are read (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Directory package names are resolved from after the data directory (default `process.cwd()`). */
  cwd?: string;
  /** Plugin factories to load besides the configured ones (embedding: `startServer({ plugins })`). */
  factories?: readonly PluginFactory[];
  /** Plugin instances to register besides the configured ones (tests). */
  extra?: readonly PlatformPlugin[];
  /** Lifetime of the "plugins" lease with `OVATION_REDIS_URL` in ms (default 15 000; tests shorten it). */
  leaseTtlMs?: number;
}

/**
 * The server's platform plugins: loads those named in `OVATION_PLUGINS` (default `console`; built-in
 * names, package names or paths, see plugin-loader) and the given factories, validates every
 * plugin's settings before anything starts, and wires a {@link PluginHost} to the bot modules and
 * the command runtime (chat -> moderation, giveaways, system commands, commands -> answers -> plugin
 * send; timers and announcements), the alert hub (notifications -> alert log -> rooms) and the
 * public `.chat` rooms. The console is served on the socket namespace `/console`. Factories declared
 * `createOn: "listen"` (Twitch) are called once the server listens, after the first-run bootstrap.
 */
export function platformPlugins(options: PlatformPluginsOptions = {}): FastifyPluginAsync {
  const register: FastifyPluginAsync = async (app) => {
    const services = app.ovation;
    const loaded = await loadPlugins({
      env: options.env ?? process.env,
      dataDir: services.config.dataDir,
      cwd: options.cwd ?? process.cwd(),
      services,
      ...(options.factories ? { factories: options.factories } : {}),
    });
    const logger = services.logger.child({ area: "plugins" });
    const host: PluginHost = new PluginHost({
      logger,
      runtime: (event, source) => services.botModules.handleChat(event, source.name),
      alerts: (notification, source) => deliverNotification(services, logger, host.get(source.name), notification),
      chatRoom: (event) => publishChatRoomEvent(services, event),
    });
    const reports = new PluginReports(host, loaded);
    const contextFor = (item: LoadedPlugin): PluginFactoryContext => ({
      logger: logger.child({ plugin: item.factory.id }),
      dataDir: services.config.dataDir,
      firstUserId: () => services.repos.users.list()[0]?.id ?? null,
    });
    const create = async (item: LoadedPlugin): Promise<void> => {
      const plugin = await item.factory(item.settings, contextFor(item));
      const source = host.register(plugin);
      reports.created(item, source.name);
      if (plugin instanceof ConsolePlugin) attachConsoleNamespace(services.io as unknown as Server, plugin, services);
    };
    for (const item of loaded) {
      if (item.factory.createOn === "listen") continue;
      try {
        await create(item);
      } catch (error) {
        throw new Error(`plugin ${item.factory.id} (${item.entry}) did not start: ${(error as Error).message}`, { cause: error });
      }
    }
    for (const plugin of options.extra ?? []) host.register(plugin);
    if (loaded.some((item) => item.factory.id === "kick")) {
      // Kick delivers its events to the server: the route exists whenever the kick plugin is loaded.
      await kickWebhookRoute(app, () => {
        const plugin = host.names().includes("kick") ? host.get("kick") : null;
        return plugin instanceof KickPlugin ? plugin : null;
      });
    }

    // Several nodes (OVATION_REDIS_URL): the platform connections run on the node holding the
    // "plugins" lease only, else every node would answer every command; the console stays on every
    // node (each console client talks to the node it reached). One node alone holds no lease.
    const perNode = (name: string) => host.get(name) instanceof ConsolePlugin;
    const lease = services.shared.lease({
      name: "plugins",
      ...(options.leaseTtlMs === undefined ? {} : { ttlMs: options.leaseTtlMs }),
      onAcquired: async () => void (await host.start()),
      onLost: async () => {
        await Promise.all(host.names().filter((name) => !perNode(name)).map((name) => host.disconnect(name)));
      },
    });
    const mayConnect = (name: string) => lease === null || lease.held || perNode(name);
    app.decorate("platformPlugins", host);
    services.botModules.attach(pluginBotOutput(host, mayConnect), null);
    app.decorate("pluginReports", reports);

    app.addHook("onReady", async () => {
      if (lease === null) await host.start();
      else {
        await Promise.all(host.names().filter(perNode).map((name) => host.connect(name).catch(() => undefined)));
        await lease.start();
      }
    });
    app.addHook("onListen", async () => {
      for (const item of loaded) {
        if (item.factory.createOn !== "listen" || reports.wasCreated(item)) continue;
        try {
          await create(item);
          const name = reports.nameOf(item) ?? item.factory.id;
          if (mayConnect(name)) await host.connect(name);
        } catch (err) {
          reports.failed(item, (err as Error).message);
          logger.error({ err, plugin: item.factory.id }, `the ${item.factory.id} plugin did not start; see ovation plugins for why`);
        }
      }
    });
    app.addHook("preClose", async () => {
      await lease?.stop();
      await host.stop();
    });
  };
  // Like fastify-plugin: the decoration and hooks belong to the app, not to an encapsulated child.
  (register as unknown as Record<symbol, boolean>)[Symbol.for("skip-override")] = true;
  return register;
}
