import type { Duplex } from "node:stream";
import { join } from "node:path";
import fastifyCookie from "@fastify/cookie";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { CHAT_HEARTBEAT_INTERVAL_MS, definedKeys, overlaySwitches, presentGoalBar } from "@ovation/core";
import Fastify from "fastify";
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler } from "fastify-type-provider-zod";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { pino } from "pino";
import type { Logger } from "pino";
import { PAT_KIND, PersonalAccessTokenVerifier } from "./auth/personal-access-token-verifier.js";
import { TokenVerifierChain } from "./auth/token-verifier-chain.js";
import type { ServerConfig } from "./config.js";
import { ApiError } from "./errors.js";
import { authenticate } from "./http/authenticate.js";
import { registerManagerAudit } from "./http/manager-audit.js";
import { rateLimitKey } from "./http/rate-limit-key.js";
import { requireEat, withApiErrors } from "./http/require-eat.js";
import { IntrospectionTokenVerifier, createEatValidator } from "./identity/index.js";
import type { EatValidator, IdentityModule } from "./identity/index.js";
import { installErrorHandler } from "./http/error-handler.js";
import { zodValidatorCompiler } from "./http/zod-validator.js";
import { registerRoutes } from "./http/routes/index.js";
import { identityPlugin } from "./identity-plugin.js";
import { dashboardClient } from "./dashboard/dashboard-client.js";
import { dashboardRoutes } from "./dashboard/routes.js";
import { platformPlugins } from "./plugins/platform-plugins.js";
import { EspeakSpeechProvider, HttpSpeechProvider, SpeechService } from "./tts/index.js";
import type { SpeechProvider } from "./tts/index.js";
import type { PlatformPluginsOptions } from "./plugins/platform-plugins.js";
import type { IdentityPluginOptions } from "./identity-plugin.js";
import { RealtimeGateway, BROWSER_SOURCE_BACKLOG_MAX_AGE_MS, DEDUP_MEMORY_PER_USER } from "./realtime/gateway.js";
import { MediaStore } from "./media/media-store.js";
import { createSocketServer } from "./realtime/socket-server.js";
import { startChatHeartbeat } from "./realtime/chat-heartbeat.js";
import type { SocketAuthenticator } from "./realtime/socket-types.js";
import { BotModulesHost } from "./commands/bot-modules-host.js";
import type { BotModulesHostOptions } from "./commands/bot-modules-host.js";
import { CommandHost } from "./commands/command-host.js";
import { openCluster } from "./redis/cluster.js";
import type { Cluster } from "./redis/cluster.js";
import { openSharedState } from "./redis/shared-state.js";
import type { SharedState } from "./redis/shared-state.js";
import { createRepositories } from "./store/repositories.js";
import { Store } from "./store/store.js";
import { reportCapBreaches } from "./store/cap-breaches.js";
import type { OvationServices } from "./services.js";

/** fastify's `trustProxy` for the configured value (a hop count trusts that many proxies). */
function fastifyTrustProxy(value: ServerConfig["trustProxy"]): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === "number") return (_address, hop) => hop < value;
  return typeof value === "boolean" ? value : [...value];
}

/** Options of `buildApp`. */
export interface BuildAppOptions {
  /** The validated configuration (`loadConfig()`). */
  config: ServerConfig;
  /** A pino logger; by default one at `config.logLevel` writing to stdout. */
  logger?: Logger;
  /**
   * Fastify plugins registered after the core routes, with `app.ovation` available (identity,
   * platform plugins). They run in the app's encapsulation context.
   */
  plugins?: readonly FastifyPluginAsync[];
  /**
   * Identity module (`/api`, `/oauth`) settings; `false` leaves it out. Ignored when
   * `config.identity.mode` is `remote` (the module runs on another host).
   */
  identity?: IdentityPluginOptions | false;
  /** Platform plugins (`OVATION_PLUGINS`, default the console); `false` leaves them out. */
  platforms?: PlatformPluginsOptions | false;
  /** Interval of the `.chat` rooms' `ingress-event` heartbeat in ms (default 30 000; tests shorten it). */
  chatHeartbeatMs?: number;
  /** The speech provider of read-aloud alerts; default: `OVATION_TTS_URL`'s HTTP server, else the embedded eSpeak NG. */
  speech?: SpeechProvider;
  /** Options of the bot modules (timers, giveaways, moderation); a clock for tests. */
  botModules?: BotModulesHostOptions;
}

/** How long requests in flight at shutdown may take before their connections are ended. */
const CLOSE_GRACE_MS = 2_000;

/** The app: a fastify instance with socket.io attached to the same HTTP server. */
export type OvationApp = FastifyInstance;

/**
 * Builds the Ovation server: opens the store of `config.dataDir`, wires authentication, the HTTP
 * API (/v1, OpenAPI at /openapi.json, docs at /docs), the browser-source pages and socket.io on
 * the same HTTP server. Does not listen; closing the app closes sockets and flushes the store.
 */
export async function buildApp(options: BuildAppOptions): Promise<OvationApp> {
  const { config } = options;
  const logger = options.logger ?? pino({ level: config.logLevel });
  const store = await Store.openConfigured(config, { logger });
  let shared: SharedState | null = null;
  let cluster: Cluster | null = null;
  try {
    shared = await openSharedState(config, logger);
    if (config.redisUrl !== null && shared.redis !== null) {
      const clusterOptions = { redisUrl: config.redisUrl, counters: shared.redis, serverId: config.serverId, nodeTtlMs: config.nodeTtlSeconds * 1000 };
      cluster = await openCluster({ ...clusterOptions, notificationIdsPerUser: DEDUP_MEMORY_PER_USER, acknowledgementsMaxAgeMs: BROWSER_SOURCE_BACKLOG_MAX_AGE_MS, logger });
    }
    return await assemble(options, store, shared, cluster, logger);
  } catch (error) {
    await cluster?.close();
    await shared?.close();
    await store.close();
    throw error;
  }
}

/** Everything of `buildApp` after the store, the shared state and the cluster links are open (so a failure can release them). */
async function assemble(options: BuildAppOptions, store: Store, shared: SharedState, cluster: Cluster | null, logger: Logger): Promise<OvationApp> {
  const { config } = options;
  const repos = createRepositories(store);

  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Node answers 408 and closes a request whose headers or whole body are late; connections are
    // checked every second (Node's default, 30 s, would let a slow body stay up to 30 s longer).
    requestTimeout: config.bodyTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, requestTimeout: config.bodyTimeoutMs, connectionsCheckingInterval: 1_000 },
    // Fastify's default (10 s per plugin) fails a start on a busy machine: registering the routes
    // and the identity module (its keys, its pages) has taken longer than that on a loaded 2-core host.
    pluginTimeout: 120_000,
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);

  const defaultJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    defaultJson(request, text, done);
  });

  const verifiers = new TokenVerifierChain();
  const failedAuth = shared.failedAuth;
  verifiers.register(new PersonalAccessTokenVerifier(repos.tokens, repos.users));
  // EATs: checked over HTTP at a remote identity host, or in-process once the local module is ready.
  const remote = config.identity.mode === "remote" ? config.identity : null;
  let eatValidator: EatValidator | null = null;
  const introspection = remote ? new IntrospectionTokenVerifier({ idUrl: remote.idUrl, clientId: remote.clientId, clientSecret: remote.clientSecret, cacheMs: remote.recheckMs }) : null;
  if (remote && introspection) {
    verifiers.register(withApiErrors(introspection));
    eatValidator = createEatValidator({ idUrl: remote.idUrl });
  }
  const socketAuthenticators: SocketAuthenticator[] = [];
  const hub = new RealtimeGateway(repos, logger, cluster?.notificationIds ?? null, cluster?.acknowledgements ?? null);
  // A revoked personal access token (chat session tokens included) closes its sockets on every node.
  repos.tokens.onRevoked((record) => hub.disconnectCredential({ kind: PAT_KIND, tokenId: String(record.id) }));
  // A remote identity host does not tell this server about revocations: its tokens' sockets are
  // re-checked every OVATION_ID_RECHECK_SECONDS (each node checks its own sockets).
  if (remote && introspection) {
    const recheck = setInterval(() => {
      void hub.closeInvalidSockets(introspection.name, async (token) => (await introspection.recheck(token)) !== null);
    }, remote.recheckMs).unref();
    app.addHook("onClose", async () => clearInterval(recheck));
  }
  const io = createSocketServer({
    httpServer: app.server,
    repos,
    verifiers,
    failedAuth,
    authenticators: socketAuthenticators,
    hub,
    serverId: config.serverId,
    trustedOrigins: [new URL(config.publicUrl).origin, new URL(config.browserSourceUrl).origin],
    logger,
    redis: cluster?.adapter ?? null,
  });

  // Plugins register after the command host; their user()/channel() lookups are read per call.
  const commands = new CommandHost(
    repos,
    logger,
    config.outboundAllowlist,
    (platform) => (app.hasDecorator("platformPlugins") ? (app.platformPlugins.lookups(platform) ?? undefined) : undefined),
    () => {
      const address = app.server.address();
      return typeof address === "object" && address !== null ? [address.port, config.port] : [config.port];
    },
    definedKeys({ cooldowns: shared.cooldowns, cache: shared.templateCache }),
  );
  const botModules = new BotModulesHost(repos, commands, logger, options.botModules);
  botModules.attach(null, {
    goalBarUpdated: (userId, goal) => hub.goalBarUpdated(userId, presentGoalBar(goal)),
    overlaySettings: (userId, settings) => hub.overlaySettings(userId, overlaySwitches(settings)),
    moduleEvent: (userId, event, payload) => hub.botModuleEvent(userId, event, payload),
  });
  reportCapBreaches(repos, (channel) => commands.keyValues.channelTables(channel), logger);
  const services: OvationServices = {
    config,
    repos,
    verifiers,
    failedAuth,
    shared,
    socketAuthenticators,
    hub,
    media: new MediaStore(join(config.dataDir, "media"), config.mediaQuota),
    commands,
    botModules,
    io,
    nodes: cluster?.nodes ?? null,
    logger,
    speech: new SpeechService(options.speech ?? (config.ttsUrl ? new HttpSpeechProvider(config.ttsUrl) : new EspeakSpeechProvider())),
    authenticate: (...scopes: string[]) => authenticate(verifiers, failedAuth, ...scopes),
    requireEat: requireEat({ mode: remote ? "remote" : "local", validator: () => eatValidator, users: repos.users }),
  };
  app.decorate("ovation", services);
  app.decorateRequest("principal", null);
  app.decorateRequest("routeScopes", null);
  app.decorateRequest("managing", null);
  registerManagerAudit(app);

  const heartbeat = startChatHeartbeat(io, options.chatHeartbeatMs ?? CHAT_HEARTBEAT_INTERVAL_MS);
  app.addHook("onReady", async () => botModules.start());
  // Upgraded connections (WebSockets) are not HTTP connections any more: the server's close waits for
  // them, and one still in its upgrade when socket.io closes its clients is none of theirs, so it
  // held the close until the peer went away. They are ended at close.
  const upgraded = new Set<Duplex>();
  app.server.on("upgrade", (_request: unknown, socket: Duplex) => {
    upgraded.add(socket);
    socket.once("close", () => upgraded.delete(socket));
  });
  app.addHook("preClose", async () => {
    heartbeat.stop();
    botModules.stop();
    io.local.disconnectSockets(true);
    io.engine.close();
    for (const socket of upgraded) socket.destroy();
    // Requests in flight get a short grace to finish; then every connection still open is ended, so
    // a peer that keeps one open (a browser's spare connection) cannot hold the shutdown. The set is
    // read again then: a kept-alive connection may have upgraded during the grace.
    setTimeout(() => {
      app.server.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
    }, CLOSE_GRACE_MS).unref();
  });
  app.addHook("onClose", async () => {
    await commands.close();
    for (const namespace of io._nsps.values()) namespace.adapter.close();
    await cluster?.close();
    await shared.close();
    await store.close();
  });

  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: rateLimitKey,
    allowList: (request) => request.url === "/health" || request.url.startsWith("/browser-source/assets/"),
    // Several nodes count together in Redis; while it fails, requests pass (fail open; the connection logs the outage).
    ...(shared.redis ? { redis: shared.redis, nameSpace: "ovation:rate-limit:", skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) =>
      new ApiError("OVATION_ERR_HTTP_RATE_LIMITED", {
        message: `Too Many Attempts. Retry after ${Math.ceil(context.ttl / 1000)} seconds.`,
      }),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "Ovation API",
        description: "Alerts, alert sets, browser sources, bot commands and queue control. Errors follow Laravel's shape with a stable `code`.",
        version: "1.0.0",
      },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: "/docs",
    // Swagger UI runs on the dashboard's origin: its own scripts only (hashes of its inline ones), and
    // no page may frame it (clickjacking a signed-in dashboard user).
    staticCSP: true,
    transformStaticCSP: (header) => header.replace("frame-ancestors 'self'", "frame-ancestors 'none'").replace(/\s*upgrade-insecure-requests;?/, ""),
    uiHooks: {
      onRequest: (_request, reply, done) => {
        void reply.header("x-frame-options", "DENY");
        done();
      },
    },
  });

  await registerRoutes(app.withTypeProvider<ZodTypeProvider>());
  let identityModule: IdentityModule | null = null;
  await dashboardRoutes(app, {
    identityBase: () => (remote ? remote.idUrl : (identityModule?.idBase() ?? config.publicUrl)),
    ...(config.dashboardClientId ? { clientId: config.dashboardClientId } : {}),
  });
  if (!remote && options.identity !== false) {
    const identity = options.identity ?? {};
    await app.register(
      identityPlugin({
        builtInClients: [dashboardClient(config.publicUrl)],
        ...identity,
        onReady: (module) => {
          identityModule = module;
          eatValidator = createEatValidator({ local: module });
          identity.onReady?.(module);
        },
      }),
    );
  }
  if (options.platforms !== false) await app.register(platformPlugins(options.platforms ?? {}));
  for (const plugin of options.plugins ?? []) await app.register(plugin);
  await app.ready();
  return app;
}
