import { isIP } from "node:net";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { z } from "zod";
import { OvationError } from "@ovation/core/contracts";
import { AddressPolicy } from "@ovation/core/net";

/** Log levels accepted by `OVATION_LOG_LEVEL` (pino's). */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Values of `OVATION_IDENTITY_MODE`. */
export const IDENTITY_MODES = ["local", "remote"] as const;

const portSchema = z.coerce
  .number({ error: "must be a port number" })
  .int("must be an integer")
  .min(0, "must be between 0 and 65535")
  .max(65535, "must be between 0 and 65535");

const urlSchema = z
  .url({ error: "must be an absolute http(s) URL", protocol: /^https?$/ })
  .transform((u) => u.replace(/\/+$/, ""));

const positiveInt = (what: string) =>
  z.coerce.number({ error: `must be ${what}` }).int(`must be ${what}`).positive(`must be ${what}`);

const boundedInt = (what: string, min: number, max: number) => {
  const rule = `must be ${what} between ${min} and ${max}`;
  return z.coerce.number({ error: rule }).int(rule).min(min, rule).max(max, rule);
};

/** A DNS host name: dot-separated labels of letters, digits and inner hyphens. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** The environment variables the server reads, with their rules. */
export const envSchema = z.object({
  PORT: portSchema.default(8080),
  HOST: z
    .string()
    .refine((host) => isIP(host) !== 0 || HOST_NAME.test(host), "must be an IP address or a host name")
    .default("0.0.0.0"),
  OVATION_DATA_DIR: z.string().min(1, "must not be empty").default("./data"),
  OVATION_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// or postgresql:// connection URL")
    .optional(),
  OVATION_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, "must be a redis:// or rediss:// connection URL")
    .optional(),
  OVATION_NODE_TTL_SECONDS: z.coerce
    .number({ error: "must be a number of seconds between 2 and 300" })
    .int("must be a number of seconds between 2 and 300")
    .min(2, "must be a number of seconds between 2 and 300")
    .max(300, "must be a number of seconds between 2 and 300")
    .default(15),
  OVATION_CHANNEL_LEASE_SECONDS: z.coerce
    .number({ error: "must be a number of seconds between 2 and 300" })
    .int("must be a number of seconds between 2 and 300")
    .min(2, "must be a number of seconds between 2 and 300")
    .max(300, "must be a number of seconds between 2 and 300")
    .default(15),
  OVATION_PUBLIC_URL: urlSchema.optional(),
  OVATION_BROWSER_SOURCE_URL: urlSchema.optional(),
  OVATION_TTS_URL: urlSchema.optional(),
  OVATION_OUTBOUND_ALLOWLIST: z.string().default(""),
  OVATION_LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  OVATION_SERVER_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, "must be 1-64 characters of A-Z a-z 0-9 . _ -")
    .optional(),
  OVATION_RATE_LIMIT_PER_MINUTE: positiveInt("a positive integer").default(600),
  OVATION_BODY_LIMIT_BYTES: positiveInt("a positive integer").default(262_144),
  OVATION_HEADERS_TIMEOUT_SECONDS: boundedInt("a number of seconds", 1, 300).default(20),
  OVATION_BODY_TIMEOUT_SECONDS: boundedInt("a number of seconds", 1, 3_600).default(30),
  OVATION_MEDIA_QUOTA_FILES: boundedInt("a number of files", 1, 1_000_000).default(200),
  OVATION_MEDIA_QUOTA_BYTES: boundedInt("a number of bytes", 1, Number.MAX_SAFE_INTEGER).default(256 * 1024 * 1024),
  OVATION_TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2}|[0-9A-Fa-f.:/,\s]+)$/, "must be true, false, a hop count, or comma-separated proxy IPs/CIDRs")
    .default("false"),
  OVATION_IDENTITY_MODE: z.enum(IDENTITY_MODES, { error: `must be one of ${IDENTITY_MODES.join(", ")}` }).default("local"),
  OVATION_ID_URL: urlSchema.optional(),
  OVATION_ID_CLIENT_ID: z.string().max(256, "must be at most 256 characters").optional(),
  OVATION_ID_CLIENT_SECRET: z.string().max(1024, "must be at most 1024 characters").optional(),
  OVATION_ID_RECHECK_SECONDS: boundedInt("a number of seconds", 1, 3_600).default(30),
  OVATION_DASHBOARD_CLIENT_ID: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, "must be 1-128 characters of A-Z a-z 0-9 . _ -").optional(),
});

/**
 * Where the identity module runs: in this server (`local`), or on another host (`remote`) whose
 * OAuth tokens are checked by introspection and EATs over `GET /api/eat/verify`.
 */
export type IdentityModeConfig =
  | { readonly mode: "local" }
  | {
      readonly mode: "remote";
      readonly idUrl: string;
      readonly clientId: string;
      readonly clientSecret: string;
      /** How long an introspection answer is reused, and how often sockets opened with a remote token are re-checked (ms). */
      readonly recheckMs: number;
    };

/** The validated, frozen server configuration. */
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  /** Absolute path of the data directory (lowdb file, admin socket, lock). */
  readonly dataDir: string;
  /** `OVATION_DATABASE_URL`: keep the store in PostgreSQL instead of the data directory's files. */
  readonly databaseUrl: string | null;
  /**
   * `OVATION_REDIS_URL`: share between nodes what one process would keep in memory (socket.io
   * adapter, rate limits, cooldowns, template cache, counters, the live-node registry).
   */
  readonly redisUrl: string | null;
  /** `OVATION_NODE_TTL_SECONDS`: with Redis, how long a node that stopped answering stays in `/server-ids`. */
  readonly nodeTtlSeconds: number;
  /**
   * `OVATION_CHANNEL_LEASE_SECONDS`: with Redis, the lifetime of the lease a node holds on each
   * channel it serves; a dead node's channels are taken by the others within it (plus a third).
   */
  readonly channelLeaseSeconds: number;
  /** `base_url`: the public address of the API, without a trailing slash. */
  readonly publicUrl: string;
  /** `browser_source_host`: where browser-source pages are served, without a trailing slash. */
  readonly browserSourceUrl: string;
  /** `OVATION_TTS_URL`: an HTTP speech server for read-aloud alerts instead of the embedded eSpeak NG (docs/tts.md); null: embedded. */
  readonly ttsUrl: string | null;
  /** Hosts and CIDRs template outbound calls may reach despite the private-range guard. */
  readonly outboundAllowlist: readonly string[];
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** This node's id for the `serverid` sticky-session cookie. */
  readonly serverId: string;
  /** Requests per minute per caller (token, or IP when anonymous). */
  readonly rateLimitPerMinute: number;
  /** Largest accepted request body in bytes. */
  readonly bodyLimitBytes: number;
  /** `OVATION_HEADERS_TIMEOUT_SECONDS`: a request whose headers have not all arrived by then is answered 408 and closed. */
  readonly headersTimeoutMs: number;
  /** `OVATION_BODY_TIMEOUT_SECONDS`: a request (headers and body) not fully received by then is answered 408 and closed. */
  readonly bodyTimeoutMs: number;
  /** `OVATION_MEDIA_QUOTA_FILES` and `OVATION_MEDIA_QUOTA_BYTES`: how many media files and bytes one user may keep. */
  readonly mediaQuota: { readonly files: number; readonly bytes: number };
  /** fastify's `trustProxy`: whether (or which) reverse proxies' X-Forwarded-* headers are believed. */
  readonly trustProxy: boolean | number | readonly string[];
  /** `OVATION_IDENTITY_MODE` and, when remote, the identity host and its introspection client. */
  readonly identity: IdentityModeConfig;
  /** `OVATION_DASHBOARD_CLIENT_ID`: the dashboard's public client on a remote identity host (null: the built-in one). */
  readonly dashboardClientId: string | null;
}

function parseTrustProxy(raw: string): boolean | number | string[] {
  if (raw === "true" || raw === "false") return raw === "true";
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
}

/** Thrown when an environment variable has a bad value; the message names every bad variable. */
export class ConfigError extends OvationError {
  override readonly name: string = "ConfigError";
  constructor(readonly problems: readonly string[]) {
    super("OVATION_ERR_CONFIG_INVALID", `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`, {
      details: { problems },
    });
  }
}

/** Whether core's outbound address policy (the one the guarded client compiles) accepts `entry`. */
function isAllowlistEntry(entry: string): boolean {
  try {
    new AddressPolicy({ allow: [entry] });
    return true;
  } catch {
    return false;
  }
}

function parseAllowlist(raw: string): string[] {
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The identity mode; remote mode names every missing variable it needs. */
function identityMode(e: z.infer<typeof envSchema>): IdentityModeConfig {
  if (e.OVATION_IDENTITY_MODE === "local") return Object.freeze({ mode: "local" });
  const needed = { OVATION_ID_URL: e.OVATION_ID_URL, OVATION_ID_CLIENT_ID: e.OVATION_ID_CLIENT_ID, OVATION_ID_CLIENT_SECRET: e.OVATION_ID_CLIENT_SECRET };
  const missing = Object.entries(needed).filter(([, value]) => value === undefined).map(([name]) => name);
  if (e.OVATION_ID_URL === undefined || e.OVATION_ID_CLIENT_ID === undefined || e.OVATION_ID_CLIENT_SECRET === undefined) {
    throw new ConfigError(missing.map((name) => `${name}: is required when OVATION_IDENTITY_MODE is remote`));
  }
  return Object.freeze({ mode: "remote", idUrl: e.OVATION_ID_URL, clientId: e.OVATION_ID_CLIENT_ID, clientSecret: e.OVATION_ID_CLIENT_SECRET, recheckMs: e.OVATION_ID_RECHECK_SECONDS * 1000 });
}

/** The variables named in `keys` that are set; an empty variable counts as unset. */
export function presentEnv(env: Readonly<Record<string, string | undefined>>, keys: readonly string[]): Record<string, string> {
  const present: Record<string, string> = {};
  for (const key of keys) {
    const value = env[key];
    if (value !== undefined && value !== "") present[key] = value;
  }
  return present;
}

/**
 * Reads the configuration from environment variables, validates all of them at once and freezes
 * the result. Throws `ConfigError` listing every bad variable by name.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env, cwd = process.cwd()): ServerConfig {
  const present = presentEnv(env, Object.keys(envSchema.shape));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message} (got ${JSON.stringify(present[String(i.path[0])] ?? "")})`));
  }
  const e = parsed.data;
  const allowlist = parseAllowlist(e.OVATION_OUTBOUND_ALLOWLIST);
  const badEntries = allowlist.filter((entry) => !isAllowlistEntry(entry));
  if (badEntries.length > 0) {
    throw new ConfigError([`OVATION_OUTBOUND_ALLOWLIST: entries must be host names, IPs or CIDRs (bad: ${badEntries.join(", ")})`]);
  }
  if (e.OVATION_HEADERS_TIMEOUT_SECONDS > e.OVATION_BODY_TIMEOUT_SECONDS) {
    throw new ConfigError([
      `OVATION_HEADERS_TIMEOUT_SECONDS: must not be longer than OVATION_BODY_TIMEOUT_SECONDS (${e.OVATION_BODY_TIMEOUT_SECONDS}), which covers headers and body (got ${e.OVATION_HEADERS_TIMEOUT_SECONDS})`,
    ]);
  }
  const identity = identityMode(e);
  // Any-address and loopback hosts are shown as localhost: security keys (WebAuthn) refuse IP addresses.
  const shownHost = e.HOST === "0.0.0.0" || e.HOST === "::" || e.HOST === "::1" || (isIP(e.HOST) === 4 && e.HOST.startsWith("127.")) ? "localhost" : e.HOST;
  const publicUrl = e.OVATION_PUBLIC_URL ?? `http://${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${e.PORT}`;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(cwd, e.OVATION_DATA_DIR),
    databaseUrl: e.OVATION_DATABASE_URL ?? null,
    redisUrl: e.OVATION_REDIS_URL ?? null,
    nodeTtlSeconds: e.OVATION_NODE_TTL_SECONDS,
    channelLeaseSeconds: e.OVATION_CHANNEL_LEASE_SECONDS,
    publicUrl,
    browserSourceUrl: e.OVATION_BROWSER_SOURCE_URL ?? `${publicUrl}/browser-source`,
    ttsUrl: e.OVATION_TTS_URL ?? null,
    outboundAllowlist: Object.freeze(allowlist),
    logLevel: e.OVATION_LOG_LEVEL,
    serverId: e.OVATION_SERVER_ID ?? (hostname().replace(/[^A-Za-z0-9._-]/g, "-").slice(0, 64) || "ovation"),
    rateLimitPerMinute: e.OVATION_RATE_LIMIT_PER_MINUTE,
    bodyLimitBytes: e.OVATION_BODY_LIMIT_BYTES,
    headersTimeoutMs: e.OVATION_HEADERS_TIMEOUT_SECONDS * 1000,
    bodyTimeoutMs: e.OVATION_BODY_TIMEOUT_SECONDS * 1000,
    mediaQuota: Object.freeze({ files: e.OVATION_MEDIA_QUOTA_FILES, bytes: e.OVATION_MEDIA_QUOTA_BYTES }),
    trustProxy: parseTrustProxy(e.OVATION_TRUST_PROXY),
    identity,
    dashboardClientId: e.OVATION_DASHBOARD_CLIENT_ID ?? null,
  });
}
