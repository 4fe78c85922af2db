import type { Server } from "node:net";
import { getHeapSpaceStatistics } from "node:v8";
import { PLATFORMS, definedKeys } from "@ovation/core/contracts";
import type { PluginFactory } from "@ovation/core/contracts";
import { catalogWithPlatforms } from "@ovation/core/alerts";
import type { Logger } from "pino";
import { startAdminSocket, stopAdminSocket } from "./admin/admin-socket.js";
import { buildApp } from "./app.js";
import type { BuildAppOptions, OvationApp } from "./app.js";
import { CliError } from "./cli-error.js";
import { bootstrap } from "./first-run.js";
import type { BootstrapResult } from "./first-run.js";
import { quickStartText } from "./quick-start.js";
import { loadConfig } from "./config.js";
import type { ServerConfig } from "./config.js";
import type { PlatformPluginsOptions } from "./plugins/platform-plugins.js";
import type { PluginReport } from "./plugins/plugin-reports.js";
import { unservedPlatforms } from "./plugins/unserved-platforms.js";
import { simulatorOf } from "./http/routes/simulate-routes.js";
import { simulateEvent } from "./simulator/simulate-event.js";
import type { UnservedPlatforms } from "./plugins/unserved-platforms.js";

function reportsOf(app: OvationApp): PluginReport[] {
  return app.hasDecorator("pluginReports") ? app.pluginReports.list() : [];
}

function unservedOf(app: OvationApp): UnservedPlatforms[] {
  const registry = app.hasDecorator("platformPlugins") ? app.platformPlugins.platforms().map((p) => p.id) : PLATFORMS;
  return unservedPlatforms(app.ovation.repos, registry);
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /** The configuration; default `loadConfig(env)`. */
  config?: ServerConfig;
  /** Environment for `loadConfig`, `OVATION_PLUGINS` and the plugins' settings (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** A pino logger (default one at `config.logLevel` on stdout). */
  logger?: Logger;
  /** Plugin factories of the program, loaded beside those `OVATION_PLUGINS` names. */
  plugins?: readonly PluginFactory[];
  /** More platform plugin options (`cwd` for package names; `false` loads no platform plugin). */
  platforms?: Omit<PlatformPluginsOptions, "env" | "factories"> | false;
  /** Identity module options (see `buildApp`). */
  identity?: BuildAppOptions["identity"];
  /** Closes the server on SIGINT/SIGTERM (what `ovation start` does). Default false: the program decides. */
  signals?: boolean;
  /** Receives the quick-start text (URL, token, browser source); default: not printed. */
  onQuickStart?: (text: string) => void;
}

/** A running Ovation server. */
export interface RunningServer {
  app: OvationApp;
  config: ServerConfig;
  /** What the first-run bootstrap found or created (the first user, its browser source, a new token). */
  firstRun: BootstrapResult;
  /** The quick-start text `ovation start` prints. */
  quickStart: string;
  /** Stops: admin socket, sockets, plugins, store flushed. Safe to call twice. */
  close(): Promise<void>;
  /** Resolves once the server is closed (by `close()` or a signal). */
  closed: Promise<void>;
}

/**
 * The identity host names itself by the address the quick start prints (`config.publicUrl`, where a
 * loopback or any-address HOST is `localhost`) unless OVATION_ID_URL or the program names another:
 * named after the listener it would be `http://127.0.0.1:PORT` while the dashboard is opened at
 * `localhost`, a different origin (CORS errors, a sign-out that bounces through 127.0.0.1).
 */
function identityOption(identity: BuildAppOptions["identity"], config: ServerConfig, env: Readonly<Record<string, string | undefined>>): Pick<BuildAppOptions, "identity"> {
  if (identity === false) return { identity };
  const named = identity?.idUrl !== undefined || (env.OVATION_ID_URL ?? process.env.OVATION_ID_URL) !== undefined;
  // PORT=0 (a port the system picks) has no address to name before listening.
  if (named || config.port === 0) return identity === undefined ? {} : { identity };
  return { identity: { ...identity, idUrl: config.publicUrl } };
}

/**
 * Runs Ovation as `ovation start` does: builds the app (with the configured and the given plugins),
 * listens, runs the first-run bootstrap (first user, default alert set including the loaded plugins'
 * platforms, demo command, token, browser source; what it created is stored before this resolves),
 * starts the plugins created on listen without waiting for them to connect, opens the admin socket
 * in the data directory (`ovation user/token create`, `ovation plugins` while it runs) and, with
 * `signals`, closes on SIGINT/SIGTERM. A start that cannot listen creates nothing.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const config = options.config ?? loadConfig(env);
  const platforms: BuildAppOptions["platforms"] =
    options.platforms === false ? false : { ...(options.platforms ?? {}), env, ...definedKeys({ factories: options.plugins }) };
  const app = await buildApp({
    config,
    platforms,
    ...definedKeys({ logger: options.logger }),
    ...identityOption(options.identity, config, env),
  });
  let admin: Server | null = null;
  let firstRun: BootstrapResult;
  // How long each step between listening and the quick start took (info: an operator sees what a slow start waits on).
  let stepAt = 0;
  const step = (what: string) => {
    const now = performance.now();
    app.log.info({ ms: Math.round(now - stepAt) }, `start: ${what}`);
    stepAt = now;
  };
  try {
    stepAt = performance.now();
    await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EADDRINUSE" && code !== "EACCES" && code !== "EADDRNOTAVAIL") throw error;
      const why = { EADDRINUSE: "is already in use", EACCES: "needs privileges this process lacks", EADDRNOTAVAIL: "is not an address of this machine" }[code];
      throw new CliError("OVATION_ERR_CLI_LISTEN_FAILED", `Cannot listen on ${config.host}:${config.port}: the address ${why} (${code}). Choose another PORT or HOST.`, { cause: error });
    });
    step("listening (plugins registered and connecting)");
    // The young generation's size now (V8's new space: its default semi-space starts at 1 MB and grows
    // to 16 MB at most; an operator's --max-semi-space-size in NODE_OPTIONS, or --min/--max on the node
    // command line, changes it: Node refuses the minimum in NODE_OPTIONS).
    const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
    app.log.info({ newSpaceMb: newSpace === undefined ? null : Math.round(newSpace.space_size / 2 ** 20) }, "start: the young generation's size");
    // After listen: a start that cannot listen creates nothing (and so loses no quick-start token).
    const catalog = app.hasDecorator("platformPlugins") ? catalogWithPlatforms(app.platformPlugins.platforms()) : undefined;
    firstRun = bootstrap(app.ovation.repos, definedKeys({ catalog }));
    if (firstRun.kind === "seeded") app.ovation.commands.reload(firstRun.user.id);
    step("first-run bootstrap done");
    // What the quick start prints (a new token, the first user) is durable before it prints. Only
    // then: persisted() waits for every write of this node, and with several nodes the channels
    // this node starts serving write their tokens meanwhile, against the other nodes' writes.
    if (firstRun.created.length > 0) {
      await app.ovation.repos.store.persisted();
      step("store persisted (the first run's records)");
    }
    // Plugins that name the first user start now that it exists (a fresh install shows none failed
    // for want of it); not awaited: a platform that is slow to reach shows as connecting in
    // `ovation plugins` and /v1/plugins, it does not hold the quick start.
    if (app.hasDecorator("platformPluginsAfterFirstRun")) {
      const began = performance.now();
      void app.platformPluginsAfterFirstRun().then(
        () => app.log.info({ ms: Math.round(performance.now() - began) }, "start: deferred plugins started"),
        (err: unknown) => app.log.error({ err }, "start: the deferred plugins did not start"),
      );
    }
    admin = await startAdminSocket(config.dataDir, app.ovation.repos, app.ovation.logger, {
      plugins: async () => ({ plugins: reportsOf(app), unserved: unservedOf(app), nodes: app.hasDecorator("nodeStatuses") ? await app.nodeStatuses() : [] }),
      simulate: async (userId, request) =>
        simulateEvent(simulatorOf(app), {
          userId,
          type: request.type,
          platform: request.platform,
          ...definedKeys({ name: request.name, data: request.data }),
        }),
    });
    step("admin socket open");
    const unserved = unservedOf(app);
    if (unserved.length > 0) app.log.warn({ unserved }, "alert sets name platforms no loaded plugin serves; they are kept, and show again once the plugin is loaded");
    if (firstRun.created.length > 0) app.log.info({ created: firstRun.created }, "first run: created the quick-start data");
  } catch (error) {
    await app.close();
    throw error;
  }

  const adminServer = admin;
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | null = null;
  const onSignal = (signal: string) => {
    app.log.info({ signal }, "shutting down");
    void close();
  };
  const sigint = () => onSignal("SIGINT");
  const sigterm = () => onSignal("SIGTERM");
  const close = (): Promise<void> => {
    closing ??= stopAdminSocket(adminServer, config.dataDir)
      .then(() => app.close())
      .finally(() => {
        process.off("SIGINT", sigint);
        process.off("SIGTERM", sigterm);
        resolveClosed();
      });
    return closing;
  };
  if (options.signals) {
    process.once("SIGINT", sigint);
    process.once("SIGTERM", sigterm);
  }
  const quickStart = quickStartText(config, firstRun);
  options.onQuickStart?.(quickStart);
  step("quick start printed");
  return { app, config, firstRun, quickStart, close, closed };
}
