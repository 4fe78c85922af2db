import type { z } from "zod";
import type { Logger } from "pino";
import type { PlatformPlugin } from "./contract.js";
import { definedKeys } from "../objects.js";

/**
 * The plugin API version this core implements (`major.minor`). A plugin declares the version it was
 * built for; the host refuses one of another major version and accepts an older minor of the same.
 */
export const PLUGIN_API_VERSION = "1.1";

/** The OAuth tokens of one linked channel, as the store keeps them. */
export interface ChannelTokens {
  access_token: string | null;
  refresh_token: string | null;
  /** Access token expiry, ms since the epoch; 0 when unknown. */
  expires_at: number;
  scopes: string[];
}

/** The operator's OAuth app of the plugin's platform (the one streamers link through). */
export interface AppCredentials {
  client_id: string;
  client_secret: string | null;
}

/**
 * Tokens of the channels a plugin serves (plugin API 1.1). Tokens live in the server's store; a
 * plugin reads them when it serves a channel and writes every refresh back, so a restart and every
 * node use the newest ones. A refused refresh marks the channel "needs reconnecting".
 */
export interface PluginCredentials {
  /** The stored tokens of a served channel's link, or null when it has none (or was unlinked). */
  tokens(connectionId: number): ChannelTokens | null;
  /** Writes refreshed tokens back to the store. */
  save(connectionId: number, tokens: ChannelTokens): void;
  /**
   * Refreshes the access token with the OAuth refresh grant at `tokenUrl` (the app credentials
   * authenticate it), saves the answer and returns it. Rejects when the platform refuses; a
   * refusal (400/401) means the streamer must link again.
   */
  refresh(connectionId: number, tokenUrl: string): Promise<ChannelTokens>;
  /** The operator's OAuth app for this platform (shared with the link flow), or null when none is set up. */
  app(): AppCredentials | null;
}

/** One request to a plugin route: the raw body (for signature checks) and the caller's address. */
export interface PluginRouteRequest {
  method: string;
  /** The path below `/v1/platforms/<id>` (for example `/webhook`). */
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  query: Readonly<Record<string, string>>;
  /** The body exactly as received (empty for GET). */
  body: string;
  /** The client address (the rate limit keys on it). */
  ip: string;
}

/** What a plugin route answers: a status and a JSON body. */
export interface PluginRouteAnswer {
  status: number;
  body?: unknown;
  /**
   * For a route limited with `limit: "refused"`: counts this answer against the caller's allowance
   * although its status is below 400 (a replayed delivery answered 200 so the platform stops
   * retrying it).
   */
  refused?: boolean;
}

/** Handles a request to a plugin route. */
export type PluginRouteHandler = (request: PluginRouteRequest) => PluginRouteAnswer | Promise<PluginRouteAnswer>;

/**
 * How a plugin route's per-minute allowance counts, per client address: `"every"` call (the
 * default), or only the `"refused"` ones (answers of status 400 and above, or marked `refused`), so
 * a platform's signed webhooks, all sent from a few addresses, are never throttled however many
 * channels there are, while a sender of bad signatures is cut off after `perMinute` refusals.
 */
export type PluginRouteLimit = "every" | "refused";

/**
 * HTTP routes a plugin declares (plugin API 1.1), mounted by the host under `/v1/platforms/<id>`.
 * They are unauthenticated (a webhook's signature is its authentication) and rate limited per
 * client address. Declare them in the factory, before the server listens.
 */
export interface PluginRoutes {
  /** Declares `POST`/`GET /v1/platforms/<id><path>`; returns the full path. */
  add(route: { method: "GET" | "POST"; path: string; handler: PluginRouteHandler; perMinute?: number; limit?: PluginRouteLimit; bodyLimit?: number }): string;
}

/** Small expiring state a plugin shares across restarts and nodes (plugin API 1.1): the store, or Redis when configured. */
export interface PluginKeyValue {
  /** Claims `key` for `ttlMs`: true the first time, false while an earlier claim lives (a replay). */
  claim(key: string, ttlMs: number): Promise<boolean>;
}

/**
 * Hands work to the node that serves a channel, when several nodes share the installation (plugin
 * API 1.1, optional: absent on one node). A webhook may reach any node; the node that received it
 * checks and de-duplicates it, then relays it to the node serving its channel.
 */
export interface PluginRelay {
  /**
   * Sends `message` (JSON-serializable) to the node that serves the channel of `platformUserId`
   * (this node's own channels are delivered here at once). A channel between nodes (a hand-over, a
   * node whose Redis connection is coming back, a dead node's lease not yet expired) is waited for,
   * up to one channel-lease lifetime and two assignment steps: resolves true once a node took it,
   * false when none did by then (or the platform user has no linked channel). Do not hold a
   * platform's request open on it.
   */
  send(platformUserId: string, message: unknown): Promise<boolean>;
  /**
   * Receives what is relayed for a channel this node serves (one receiver per plugin). Return
   * false when this node does not serve that channel (any more): the host hands the message on to
   * the node that does, within the same wait.
   */
  receive(handler: (platformUserId: string, message: unknown) => boolean | void): void;
}

/**
 * A rate limit shared by every node of the installation (plugin API 1.1, optional: absent on one
 * node), for a platform limit that counts per account rather than per connection (Twitch's JOIN
 * rate of the bot account, for example; a sliding window), or per project (YouTube's daily quota:
 * a counter and the nodes' channel counts). Counted in Redis.
 */
export interface PluginQuota {
  /**
   * Takes up to `wanted` units of the limit `name` (at most `perWindow` in any `windowMs`, over all
   * nodes); resolves with how many were granted (0 to `wanted`). Rejects when the count cannot be
   * reached (the caller waits and tries again, it does not go over the limit).
   */
  take(name: string, wanted: number, perWindow: number, windowMs: number): Promise<number>;
  /**
   * Adds `units` to the counter `name`, one for every node (a day's use of a project quota, for
   * example: put the day in the name); the counter is forgotten `ttlMs` after it was started.
   * Resolves with the total after the addition (`units` 0 reads it).
   */
  count(name: string, units: number, ttlMs: number): Promise<number>;
  /**
   * Records this node's `value` of `name` (how many channels of a platform it serves, for
   * example), forgotten `ttlMs` later unless recorded again, and resolves with the sum over the
   * live nodes' values.
   */
  sum(name: string, value: number, ttlMs: number): Promise<number>;
}

/** What the host gives a plugin factory besides its validated settings. */
export interface PluginFactoryContext {
  /** A pino child logger bound to the plugin's id. */
  readonly logger: Logger;
  /** The server's data directory (a plugin may keep its own files under `<dataDir>/plugins/<id>`). */
  readonly dataDir: string;
  /** The id of the first user of the server (the quick-start user), or null before the first run. */
  firstUserId(): number | null;
  /** API 1.1: tokens of the served channels, with write-back. */
  readonly credentials: PluginCredentials;
  /** API 1.1: HTTP routes under `/v1/platforms/<id>` (webhooks). */
  readonly routes: PluginRoutes;
  /** API 1.1: expiring keys shared across restarts and nodes (webhook de-duplication). */
  readonly state: PluginKeyValue;
  /** API 1.1, with several nodes only: relays work to the node serving a channel (webhooks). */
  readonly relay?: PluginRelay;
  /** API 1.1, with several nodes only: rate limits shared by every node (per-account platform limits). */
  readonly quota?: PluginQuota;
}

/**
 * A plugin module's default export: builds the plugin from its validated settings. Made with
 * {@link definePlugin}, which attaches the id, the settings schema and the API version.
 */
export interface PluginFactory<Schema extends z.ZodType = z.ZodType> {
  (settings: z.output<Schema>, context: PluginFactoryContext): PlatformPlugin | Promise<PlatformPlugin>;
  /** Plugin id: `OVATION_PLUGINS` entry for built-ins, the settings key, and `OVATION_PLUGIN_<ID>_*`. */
  readonly id: string;
  /** zod schema of the settings (an object schema; env values arrive as strings, so coerce numbers). */
  readonly settings: Schema;
  /** The plugin API version the plugin was built for (`major.minor`, see {@link PLUGIN_API_VERSION}). */
  readonly apiVersion: string;
  /** Environment prefix of the settings; default `OVATION_PLUGIN_<ID>_` (id upper-cased, `-` as `_`). */
  readonly envPrefix?: string;
  /**
   * When the host calls the factory: `"register"` (default) while the app is built, or `"listen"`
   * once the server listens (after the first-run bootstrap, for settings that name the first user).
   */
  readonly createOn?: "register" | "listen";
}

/** What {@link definePlugin} takes besides the factory function. */
export interface PluginDefinition<Schema extends z.ZodType> {
  id: string;
  settings: Schema;
  /** Default {@link PLUGIN_API_VERSION} of the @ovation/core/contracts the plugin was compiled against. */
  apiVersion?: string;
  envPrefix?: string;
  createOn?: "register" | "listen";
}

/**
 * Makes a plugin module's default export: `export default definePlugin({ id, settings }, (settings, context) => plugin)`.
 * The API version defaults to the one of the contracts the plugin is compiled against.
 */
export function definePlugin<Schema extends z.ZodType>(
  definition: PluginDefinition<Schema>,
  create: (settings: z.output<Schema>, context: PluginFactoryContext) => PlatformPlugin | Promise<PlatformPlugin>,
): PluginFactory<Schema> {
  const factory = (settings: z.output<Schema>, context: PluginFactoryContext) => create(settings, context);
  return Object.assign(factory, {
    id: definition.id,
    settings: definition.settings,
    apiVersion: definition.apiVersion ?? PLUGIN_API_VERSION,
    ...definedKeys({ envPrefix: definition.envPrefix, createOn: definition.createOn }),
  });
}

/** Why a plugin's API version is not accepted by this core, or null when it is. */
export function apiVersionProblem(declared: unknown, current: string = PLUGIN_API_VERSION): string | null {
  if (typeof declared !== "string" || !/^\d+\.\d+$/.test(declared)) {
    return `declares no valid plugin API version (apiVersion must be "major.minor", got ${JSON.stringify(declared)})`;
  }
  const [major, minor] = declared.split(".").map(Number) as [number, number];
  const [hostMajor, hostMinor] = current.split(".").map(Number) as [number, number];
  if (major !== hostMajor) {
    return `was built for plugin API ${declared}, but this Ovation implements ${current} (major ${hostMajor}); use a version of the plugin made for API ${hostMajor}.x`;
  }
  if (minor > hostMinor) {
    return `needs plugin API ${declared}, newer than this Ovation's ${current}; update Ovation`;
  }
  return null;
}
