import { PluginHost } from "@ovation/core/plugins";
import { definedKeys } from "@ovation/core/contracts";
import type { PlatformPlugin, PluginFactory, PluginFactoryContext } from "@ovation/core/contracts";
import type { ConsolePlugin } from "@ovation/plugin-console";
import type { FastifyPluginAsync } from "fastify";
import type { Server } from "socket.io";
import type { ConnectionStatusView } from "../identity/index.js";
import type { ConnectionRecord } from "../store/records.js";
import { connectionStatusOf } from "./channel-status.js";
import { channelAssignmentPeriodMs } from "../redis/channel-assignment.js";
import type { AssignmentView } from "../redis/channel-assignment.js";
import { readNodeStatuses } from "../redis/node-status.js";
import type { NodeStatus } from "../redis/node-status.js";
import { ChannelSync } from "./channel-sync.js";
import { deliverNotification, publishChatRoomEvent } from "./chat-routing.js";
import { attachConsoleNamespace } from "./console-namespace.js";
import { pluginBotOutput } from "./plugin-bot-output.js";
import { NodeRelay } from "../redis/node-relay.js";
import { SharedQuota } from "../redis/shared-quota.js";
import { mountPluginRoutes, pluginCredentials, pluginRelay, pluginRoutes, pluginState } from "./plugin-services.js";
import type { DeclaredRoute } from "./plugin-services.js";
import { loadPlugins } from "./plugin-loader.js";
import type { LoadedPlugin } from "./plugin-loader.js";
import { PluginReports } from "./plugin-reports.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The platform plugins of this server (health, sends, lookups, platform registry). */
    platformPlugins: PluginHost;
    /** What was loaded from `OVATION_PLUGINS` and how each plugin is doing (`ovation plugins`). */
    pluginReports: PluginReports;
    /** How the bot serves a linked channel (the connection view's `status`). */
    connectionStatus(connection: ConnectionRecord): ConnectionStatusView;
    /**
     * Creates and connects the plugins declared `createOn: "listen"` once the first-run bootstrap
     * made the first user (listening without a user leaves them waiting instead of failed); one
     * call at a time, a plugin is created once. `startServer` calls it and does not wait for it.
     */
    platformPluginsAfterFirstRun(): Promise<void>;
    /** With several nodes: the channels this node holds and the live nodes it sees (null on one node). */
    channelAssignment(): AssignmentView | null;
    /** Which node serves which channels: this node's status, and with several nodes each live node's (from Redis). */
    nodeStatuses(): Promise<NodeStatus[]>;
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
  /** Lifetime of a channel's lease with `OVATION_REDIS_URL` in ms (default `OVATION_CHANNEL_LEASE_SECONDS`). */
  channelLeaseTtlMs?: number;
}

/**
 * The server's platform plugins: loads those named in `OVATION_PLUGINS` (default `console`; built-in
 * names, package names or paths, see plugin-loader) and the given factories, validates every
 * plugin's settings before anything starts, and wires a {@link PluginHost} to the bot modules and
 * the command runtime (chat -> moderation, giveaways, system commands, commands -> answers -> plugin
 * send; timers and announcements), the realtime gateway (notifications -> alert log -> rooms) and the
 * public `.chat` rooms. The console is served on the socket namespace `/console`. Plugins of API 1.1
 * serve the linked channels of users who switched the bot on, kept in step with the store by
 * {@link ChannelSync}; their factories get the credentials, routes and state services. Factories
 * declared `createOn: "listen"` are called once the server listens and a first user exists (after
 * the first-run bootstrap), never failing for want of one.
 */
export function platformPlugins(options: PlatformPluginsOptions = {}): FastifyPluginAsync {
  const register: FastifyPluginAsync = async (app) => {
    const services = app.ovation;
    const loaded = await loadPlugins({
      env: options.env ?? process.env,
      dataDir: services.config.dataDir,
      cwd: options.cwd ?? process.cwd(),
      services,
      ...definedKeys({ factories: options.factories }),
    });
    const logger = services.logger.child({ area: "plugins" });
    const host: PluginHost = new PluginHost({
      logger,
      runtime: (event, source) => services.botModules.handleChat(event, source.name),
      alerts: (notification, source) => deliverNotification(services, logger, host.get(source.name), notification),
      chatRoom: (event) => publishChatRoomEvent(services, event),
    });
    const reports = new PluginReports(host, loaded);
    const env = options.env ?? process.env;
    const routes = new Map<string, DeclaredRoute[]>();
    let mounted = false;
    const consoles = new Set<string>();
    /** Plugins of API 1.1 that also serve channels named in their settings: one node runs them (the lease). */
    const configured = new Set<string>();
    // Several nodes: webhooks that reach a node not serving their channel are relayed to the one that does.
    const clustered = services.shared.redis !== null && services.nodes !== null;
    const relay = clustered && services.shared.redis ? await NodeRelay.open(services.shared.redis, services.config.serverId, logger) : null;
    const channelLeaseTtlMs = options.channelLeaseTtlMs ?? services.config.channelLeaseSeconds * 1000;
    // A relayed message waits this long for its channel's node: a dead node's lease expires and the next owner takes the channel within it.
    const relayWaitMs = channelLeaseTtlMs + 2 * channelAssignmentPeriodMs(channelLeaseTtlMs);
    // Several nodes: per-account and per-project platform limits (Twitch's JOIN rate, YouTube's daily quota) are counted for all nodes together.
    const quota = clustered && services.shared.redis ? new SharedQuota(services.shared.redis, services.config.serverId) : null;
    const contextFor = (item: LoadedPlugin): PluginFactoryContext => {
      const id = item.factory.id;
      const declared: DeclaredRoute[] = [];
      routes.set(id, declared);
      const platform = () => {
        const name = reports.nameOf(item);
        return name !== undefined && host.names().includes(name) ? host.get(name).metadata.platform : id;
      };
      return {
        logger: logger.child({ plugin: id }),
        dataDir: services.config.dataDir,
        firstUserId: () => services.repos.users.list()[0]?.id ?? null,
        credentials: pluginCredentials(services, platform, env),
        routes: pluginRoutes(id, declared, () => mounted),
        state: pluginState(services, id),
        ...(relay
          ? {
              relay: pluginRelay(services, relay, id, () => {
                const name = reports.nameOf(item);
                return name !== undefined && host.names().includes(name) ? { name, platform: host.get(name).metadata.platform } : null;
              }, relayWaitMs),
            }
          : {}),
        ...(quota ? { quota } : {}),
      };
    };
    const create = async (item: LoadedPlugin): Promise<void> => {
      const plugin = await item.factory(item.settings, contextFor(item));
      const source = host.register(plugin);
      reports.created(item, source.name);
      // Channels before any was served come from its settings (OVATION_TWITCH_CHANNELS): every node would answer them.
      if (host.servesChannels(source.name) && plugin.channels().length > 0) configured.add(source.name);
      // The built-in console is also served on the socket namespace /console, on every node.
      if (item.origin === "built-in" && item.factory.id === "console") {
        consoles.add(source.name);
        attachConsoleNamespace(services.io as unknown as Server, plugin as ConsolePlugin, services);
      }
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
    // Routes the plugins declared (webhooks) under /v1/platforms/<id>; later declarations are refused.
    for (const [id, declared] of routes) await mountPluginRoutes(app, id, declared);
    mounted = true;

    // Several nodes (OVATION_REDIS_URL): a plugin that serves linked channels (API 1.1) runs on
    // every node and serves there the channels the assignment gives that node (ChannelSync); a
    // plugin of API 1.0 (it serves what it is configured with) runs on the node holding the
    // "plugins" lease only, else every node would answer every command; the console stays on every
    // node (each console client talks to the node it reached). One node alone holds no lease.
    const perNode = (name: string) => consoles.has(name) || (host.servesChannels(name) && !configured.has(name));
    const lease = services.shared.lease({
      name: "plugins",
      ...definedKeys({ ttlMs: options.leaseTtlMs }),
      onAcquired: async () => void (await host.start()),
      onLost: async () => {
        await Promise.all(host.names().filter((name) => !perNode(name)).map((name) => host.disconnect(name)));
      },
    });
    const mayConnect = (name: string) => lease === null || lease.held || perNode(name);
    const sync = new ChannelSync(
      host,
      services,
      logger,
      clustered
        ? { leaseTtlMs: channelLeaseTtlMs, spread: (name) => !configured.has(name), active: mayConnect }
        : null,
    );
    app.decorate("platformPlugins", host);
    services.botModules.attach(pluginBotOutput(host, mayConnect), null);
    app.decorate("pluginReports", reports);
    app.decorate("connectionStatus", (connection: ConnectionRecord) => connectionStatusOf(host, connection));
    app.decorate("channelAssignment", () => sync.assignment());
    app.decorate("nodeStatuses", async (): Promise<NodeStatus[]> => {
      const { redis } = services.shared;
      const local = sync.localStatus();
      if (!clustered || !redis || !services.nodes) return [local];
      try {
        const others = await readNodeStatuses(redis, (await services.nodes.liveIds()).filter((id) => id !== local.node));
        return [local, ...others].sort((a, b) => a.node.localeCompare(b.node));
      } catch {
        return [local];
      }
    });

    app.addHook("onReady", async () => {
      sync.start();
      if (lease === null) await host.start();
      else {
        await Promise.all(host.names().filter(perNode).map((name) => host.connect(name).catch(() => undefined)));
        await lease.start();
      }
    });
    let listening = false;
    let closing = false;
    const startDeferred = async (): Promise<void> => {
      // Before the first run made a user, a plugin that names one waits (pending), it does not fail.
      if (!listening || services.repos.users.list().length === 0) return;
      for (const item of loaded) {
        if (closing) return;
        if (item.factory.createOn !== "listen" || reports.wasCreated(item)) continue;
        try {
          const began = performance.now();
          await create(item);
          const created = performance.now();
          const name = reports.nameOf(item) ?? item.factory.id;
          if (closing) return;
          if (host.servesChannels(name)) sync.reconcile();
          if (mayConnect(name)) await host.connect(name);
          logger.info({ plugin: item.factory.id, createMs: Math.round(created - began), connectMs: Math.round(performance.now() - created) }, "deferred plugin started");
        } catch (err) {
          reports.failed(item, (err as Error).message);
          logger.error({ err, plugin: item.factory.id }, `the ${item.factory.id} plugin did not start; see ovation plugins for why`);
        }
      }
    };
    // One start at a time (the listen hook's and the first run's): a plugin is never created twice.
    let deferred: Promise<void> = Promise.resolve();
    const createDeferred = (): Promise<void> => (deferred = deferred.then(startDeferred));
    app.decorate("platformPluginsAfterFirstRun", createDeferred);
    app.addHook("onListen", async () => {
      listening = true;
      await createDeferred();
    });
    app.addHook("preClose", async () => {
      // A deferred plugin still being created is not connected after this (host.stop() ends one connecting).
      closing = true;
      await sync.stop();
      await lease?.stop();
      await host.stop();
      await relay?.close();
    });
  };
  // Like fastify-plugin: the decoration and hooks belong to the app, not to an encapsulated child.
  (register as unknown as Record<symbol, boolean>)[Symbol.for("skip-override")] = true;
  return register;
}
