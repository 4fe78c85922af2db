import type { ChannelTokens, PluginCredentials, PluginKeyValue, PluginRelay, PluginRouteHandler, PluginRouteLimit, PluginRoutes } from "@ovation/core/contracts";
import type { FastifyInstance } from "fastify";
import { sha256Hex } from "../crypto/secrets.js";
import { ApiError } from "../errors.js";
import { ChannelAssignment } from "../redis/channel-assignment.js";
import type { NodeRelay } from "../redis/node-relay.js";
import { channelKey } from "./channel-sync.js";
import type { OvationServices } from "../services.js";

/** Extension key of the plugins' expiring claims in the store document (without Redis). */
const CLAIMS_KEY = "plugin_claims";

/** A route a plugin declared, mounted by the host under `/v1/platforms/<id>`. */
export interface DeclaredRoute {
  method: "GET" | "POST";
  path: string;
  handler: PluginRouteHandler;
  perMinute: number;
  /** What counts against `perMinute`: every call, or only refused ones (see `PluginRouteLimit`). */
  limit: PluginRouteLimit;
  bodyLimit: number;
}

/** Why a token refresh was refused, with the HTTP status the token endpoint answered. */
export class RefreshRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "RefreshRefused";
  }
}

/**
 * The credentials service of one plugin: the stored tokens of the links of its platform only (a
 * plugin never reads another platform's tokens), written back on refresh without firing the change
 * feed (the plugin serves them already), and the operator's OAuth app of the platform
 * (`OVATION_<PLATFORM>_CLIENT_ID`/`_CLIENT_SECRET`, the ones the link flow uses).
 */
export function pluginCredentials(services: OvationServices, platform: () => string, env: Readonly<Record<string, string | undefined>>): PluginCredentials {
  const { connections } = services.repos;
  const own = (connectionId: number) => connections.get(connectionId)?.platform === platform();
  const app = () => {
    const key = platform().toUpperCase().replace(/-/g, "_");
    const id = env[`OVATION_${key}_CLIENT_ID`];
    return id ? { client_id: id, client_secret: env[`OVATION_${key}_CLIENT_SECRET`] ?? null } : null;
  };
  const save = (connectionId: number, tokens: ChannelTokens) => {
    if (!own(connectionId)) return;
    const before = connections.tokensOf(connectionId);
    connections.saveTokens(connectionId, { ...tokens, scopes: tokens.scopes.length > 0 ? [...tokens.scopes] : (before?.scopes ?? []) }, "refresh");
  };
  return {
    tokens: (connectionId) => {
      if (!own(connectionId)) return null;
      const t = connections.tokensOf(connectionId);
      return t ? { access_token: t.access_token, refresh_token: t.refresh_token, expires_at: t.expires_at, scopes: t.scopes } : null;
    },
    save,
    async refresh(connectionId, tokenUrl) {
      const stored = own(connectionId) ? connections.tokensOf(connectionId) : null;
      if (!stored?.refresh_token) throw new RefreshRefused("the link has no refresh token", 400);
      const client = app();
      if (!client) throw new Error(`no OAuth app is set up for ${platform()}`);
      const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: stored.refresh_token, client_id: client.client_id });
      if (client.client_secret) body.set("client_secret", client.client_secret);
      const answer = await fetch(tokenUrl, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body, signal: AbortSignal.timeout(15_000) });
      const json = (await answer.json().catch(() => ({}))) as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown; scope?: unknown };
      if (!answer.ok || typeof json.access_token !== "string") {
        throw new RefreshRefused(`the token endpoint refused the refresh (HTTP ${answer.status})`, answer.status);
      }
      const scopes = Array.isArray(json.scope) ? json.scope.filter((s): s is string => typeof s === "string") : typeof json.scope === "string" ? json.scope.split(/[ ,]+/).filter(Boolean) : stored.scopes;
      const tokens: ChannelTokens = {
        access_token: json.access_token,
        refresh_token: typeof json.refresh_token === "string" ? json.refresh_token : stored.refresh_token,
        expires_at: typeof json.expires_in === "number" ? Date.now() + json.expires_in * 1000 : 0,
        scopes,
      };
      save(connectionId, tokens);
      return tokens;
    },
    app,
  };
}

/**
 * Expiring claims shared across restarts (the store) and nodes (Redis `SET NX PX` when
 * `OVATION_REDIS_URL` is set). Keys are hashed and namespaced by plugin.
 */
export function pluginState(services: OvationServices, pluginId: string): PluginKeyValue {
  const redis = services.shared.redis;
  const claims = services.repos.store.extension<Record<string, number>>(CLAIMS_KEY, () => ({}));
  return {
    async claim(key, ttlMs) {
      const hashed = `${pluginId}:${sha256Hex(key)}`;
      const ttl = Math.max(1, Math.ceil(ttlMs));
      if (redis) return (await redis.set(`ovation:plugin-claim:${hashed}`, "1", "PX", ttl, "NX")) === "OK";
      const now = Date.now();
      return claims.update((all) => {
        for (const [k, until] of Object.entries(all)) if (until <= now) delete all[k];
        if ((all[hashed] ?? 0) > now) return false;
        all[hashed] = now + ttl;
        return true;
      });
    },
  };
}

/** Hand-overs of one plugin waiting for their channel's node at once; beyond it a message is tried once (a flood holds no memory). */
const WAITING_HAND_OVERS = 10_000;

/** What a relay carries between nodes: the channel's platform user, the plugin's message, how long it may still wait for its node. */
interface RelayedMessage {
  platform_user_id?: unknown;
  message?: unknown;
  wait_ms?: unknown;
}

/**
 * The relay of one plugin with several nodes: finds the connection of a platform user and the node
 * holding its channel's lease, and publishes the message to that node under the plugin's id; the
 * receiving node hands it to the plugin's receiver. A channel between nodes is waited for, up to
 * `waitMs` (one lease lifetime and two steps: a dead node's lease expires and the next owner takes
 * it within that): no lease yet (a hand-over, leases written again after a Redis restart), a node
 * whose relay connection is not subscribed (reconnecting to Redis, or dead), or a node that no
 * longer serves the channel (it hands the message on, within what is left of the wait). A message
 * goes to one node at a time, so none is delivered twice; a node dying with one in hand loses it.
 * `plugin` names the registered plugin and its platform (null before it is created).
 */
export function pluginRelay(services: OvationServices, relay: NodeRelay, pluginId: string, plugin: () => { name: string; platform: string } | null, waitMs: number): PluginRelay {
  const redis = services.shared.redis;
  const self = services.config.serverId;
  const logger = services.logger.child({ plugin: pluginId });
  let receiver: ((platformUserId: string, message: unknown) => boolean | void) | null = null;
  let waiting = 0;
  /** One try: `taken` once a node took the message (this node's receiver, or another node's relay connection); `none` when no channel is linked to the user. */
  const tryOnce = async (platformUserId: string, message: unknown, leftMs: number): Promise<"taken" | "wait" | "none"> => {
    const registered = plugin();
    if (!registered || !redis) return "none";
    const connection = services.repos.connections.findByPlatformId(registered.platform, platformUserId);
    if (!connection) return "none";
    const node = await ChannelAssignment.holderOf(redis, channelKey(registered.name, connection.id));
    if (node === null) return "wait";
    if (node === self) return receiver !== null && receiver(platformUserId, message) !== false ? "taken" : "wait";
    const relayed: RelayedMessage = { platform_user_id: platformUserId, message, wait_ms: leftMs };
    return (await relay.send(node, pluginId, relayed)) ? "taken" : "wait";
  };
  /** Tries at once (or after `firstPauseMs`), then again with a growing pause until `forMs` passed. */
  const handOver = async (platformUserId: string, message: unknown, forMs: number, firstPauseMs: number): Promise<boolean> => {
    const deadline = Date.now() + forMs;
    const attempt = () => tryOnce(platformUserId, message, Math.max(0, deadline - Date.now())).catch(() => "wait" as const);
    if (waiting >= WAITING_HAND_OVERS) return firstPauseMs === 0 && (await attempt()) === "taken";
    waiting++;
    try {
      for (let pause = firstPauseMs; ; pause = Math.min(500, Math.max(50, pause * 2))) {
        if (pause > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(0, deadline - Date.now()))));
        const outcome = await attempt();
        if (outcome !== "wait") return outcome === "taken";
        if (Date.now() >= deadline) return false;
      }
    } finally {
      waiting--;
    }
  };
  return {
    send: (platformUserId, message) => handOver(platformUserId, message, waitMs, 0),
    receive(handler) {
      receiver = handler;
      relay.on(pluginId, (payload) => {
        const p = payload as RelayedMessage | null;
        if (typeof p?.platform_user_id !== "string") return;
        const platformUserId = p.platform_user_id;
        if (handler(platformUserId, p.message) !== false) return;
        // Relayed as this node gave the channel up: on to the node that serves it now, within what is left of the wait.
        const left = typeof p.wait_ms === "number" && Number.isFinite(p.wait_ms) ? Math.min(Math.max(0, p.wait_ms), waitMs) : 0;
        void handOver(platformUserId, p.message, left, 50).then((taken) => {
          if (!taken) logger.warn({ platform_user_id: platformUserId.slice(0, 64) }, "a relayed message found no node serving its channel in time; dropped");
        });
      });
    },
  };
}

/** Collects a plugin's routes while its factory runs; the host mounts them before the server listens. */
export function pluginRoutes(pluginId: string, declared: DeclaredRoute[], mounted: () => boolean): PluginRoutes {
  return {
    add(route) {
      if (mounted()) throw new Error(`plugin ${pluginId}: routes must be declared in the factory, before the server listens`);
      if (!/^\/[A-Za-z0-9/_-]{1,200}$/.test(route.path)) throw new Error(`plugin ${pluginId}: route path ${JSON.stringify(route.path)} must start with / and use A-Z, a-z, 0-9, /, _ and -`);
      declared.push({ method: route.method, path: route.path, handler: route.handler, perMinute: route.perMinute ?? 1200, limit: route.limit ?? "every", bodyLimit: route.bodyLimit ?? 256 * 1024 });
      return `/v1/platforms/${pluginId}${route.path}`;
    },
  };
}

/** Addresses remembered at most by one route's refusal counter; the oldest windows go first beyond it. */
const REFUSAL_ADDRESSES = 10_000;

/**
 * Refused answers per client address in a fixed one-minute window, in this node's memory (each node
 * counts its own: a sender of bad signatures gets `perMinute` refusals per node at most).
 */
export class RefusalCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `ip` may call again, or 0 when it is under its allowance. */
  retryAfter(ip: string): number {
    const window = this.windows.get(ip);
    if (!window || this.now() - window.start >= 60_000 || window.count < this.perMinute) return 0;
    return Math.max(1, Math.ceil((window.start + 60_000 - this.now()) / 1000));
  }

  /** Counts one refused answer to `ip`. */
  refused(ip: string): void {
    const now = this.now();
    const window = this.windows.get(ip);
    if (window && now - window.start < 60_000) {
      window.count += 1;
      return;
    }
    this.windows.delete(ip);
    this.windows.set(ip, { start: now, count: 1 });
    if (this.windows.size > REFUSAL_ADDRESSES) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
  }
}

/**
 * Mounts a plugin's declared routes under `/v1/platforms/<id>`: the body is kept raw (a webhook's
 * signature covers its bytes), the rate limit keys on the client address (never on a header the
 * caller chooses), and a handler's failure answers 500 without its details. A route limited on
 * `"refused"` answers only counts refusals (and a handler's failure), so a platform's signed
 * deliveries are never throttled.
 */
export async function mountPluginRoutes(app: FastifyInstance, pluginId: string, routes: readonly DeclaredRoute[]): Promise<void> {
  if (routes.length === 0) return;
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => done(null, body));
    for (const route of routes) {
      const refusals = route.limit === "refused" ? new RefusalCounter(route.perMinute) : null;
      scope.route({
        method: route.method,
        url: `/v1/platforms/${pluginId}${route.path}`,
        bodyLimit: route.bodyLimit,
        schema: { hide: true },
        config: { rateLimit: refusals ? false : { max: route.perMinute, timeWindow: "1 minute", keyGenerator: (request: { ip: string }) => `plugin-route:${pluginId}:ip:${request.ip}` } },
        handler: async (request, reply) => {
          const retryAfter = refusals?.retryAfter(request.ip) ?? 0;
          if (retryAfter > 0) {
            const limited = new ApiError("OVATION_ERR_HTTP_RATE_LIMITED", { message: `Too Many Attempts. Retry after ${retryAfter} seconds.` });
            return reply.code(limited.status).header("retry-after", String(retryAfter)).send(limited.toBody());
          }
          const query: Record<string, string> = {};
          for (const [k, v] of Object.entries((request.query ?? {}) as Record<string, unknown>)) if (typeof v === "string") query[k] = v;
          try {
            const answer = await route.handler({
              method: request.method,
              path: route.path,
              headers: request.headers,
              query,
              body: typeof request.body === "string" ? request.body : "",
              ip: request.ip,
            });
            if (answer.status >= 400 || answer.refused === true) refusals?.refused(request.ip);
            return reply.code(answer.status).send(answer.body ?? {});
          } catch (err) {
            refusals?.refused(request.ip);
            request.log.error({ err, plugin: pluginId }, "plugin route failed");
            return reply.code(500).send({ message: "The plugin could not handle the request.", reason: "plugin_error" });
          }
        },
      });
    }
  });
}
