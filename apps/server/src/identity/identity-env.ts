import { z } from "zod";
import { OvationError } from "@ovation/core";

/**
 * Default lifetimes, in seconds (docs/identity.md, "Configuration"; EAT and codes are our choice).
 * Personal access tokens are the host's: six calendar months (`PAT_LIFETIME_MONTHS`), never refreshed.
 */
export const DEFAULT_LIFETIMES = Object.freeze({
  accessToken: 15 * 24 * 3600,
  refreshToken: 30 * 24 * 3600,
  eat: 10 * 60,
  eatCode: 10 * 60,
  session: 30 * 24 * 3600,
  emailVerification: 24 * 3600,
});

/** Token and code lifetimes in seconds. */
export type IdentityLifetimes = { -readonly [K in keyof typeof DEFAULT_LIFETIMES]: number };

const urlSchema = z
  .url({ error: "must be an absolute http(s) URL", protocol: /^https?$/ })
  .transform((u) => u.replace(/\/+$/, ""));
const seconds = z.coerce.number({ error: "must be a number of seconds" }).int("must be an integer").positive("must be positive");

/** Environment variables of the identity module. */
export const identityEnvSchema = z.object({
  OVATION_ID_URL: urlSchema.optional(),
  OVATION_SMTP_URL: z.url({ error: "must be an smtp:// or smtps:// URL", protocol: /^smtps?$/ }).optional(),
  OVATION_MAIL_FROM: z.string().min(3, "must be an address like Ovation <no-reply@example.com>").optional(),
  OVATION_ACCESS_TOKEN_TTL: seconds.optional(),
  OVATION_REFRESH_TOKEN_TTL: seconds.optional(),
  OVATION_EAT_TTL: seconds.optional(),
  OVATION_EAT_CODE_TTL: seconds.optional(),
});

/** Identity settings read from the environment. */
export interface IdentityEnvConfig {
  /** The identity host (without `/api`): `OVATION_ID_URL`, else `OVATION_PUBLIC_URL`; absent means "this server's listening address". */
  readonly idUrl: string | undefined;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string | undefined;
  readonly lifetimes: Readonly<IdentityLifetimes>;
  /** Platform OAuth apps from `OVATION_<PLATFORM>_CLIENT_ID` / `_CLIENT_SECRET`. */
  readonly platformCredentials: Readonly<Record<string, { clientId: string; clientSecret: string }>>;
  /**
   * Endpoint overrides of each platform, from the same variables its plugin reads (one setting
   * points both the link flow and the plugin at a proxy or a fake): `OVATION_<P>_AUTHORIZE_URL`,
   * `OVATION_<P>_TOKEN_URL` and the API base (`OVATION_TWITCH_HELIX_URL`, `OVATION_<P>_API_URL`).
   */
  readonly platformEndpoints: Readonly<Record<string, PlatformEndpoints>>;
}

/** Where one platform's OAuth and user lookup live; absent fields keep the platform's own hosts. */
export interface PlatformEndpoints {
  readonly authorizeUrl?: string;
  readonly tokenUrl?: string;
  /** Base of the API the user lookup calls (Helix, the YouTube Data API, Kick's public API, TikTok's open API). */
  readonly apiUrl?: string;
}

/** The variable of each platform's API base, as the plugins name it. */
const API_URL_ENV: Readonly<Record<(typeof PLATFORM_ENV)[number], string>> = {
  TWITCH: "OVATION_TWITCH_HELIX_URL",
  YOUTUBE: "OVATION_YOUTUBE_API_URL",
  KICK: "OVATION_KICK_API_URL",
  TIKTOK: "OVATION_TIKTOK_API_URL",
};

/** A bad identity environment variable; the message names each one. */
export class IdentityConfigError extends OvationError {
  override readonly name = "IdentityConfigError";
  constructor(readonly problems: readonly string[]) {
    super("OVATION_ERR_CONFIG_INVALID", `Invalid identity configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`, { details: { problems } });
  }
}

const PLATFORM_ENV = ["TWITCH", "YOUTUBE", "KICK", "TIKTOK"] as const;

/** Reads and validates the identity variables; throws `IdentityConfigError` listing every bad one. */
export function loadIdentityEnv(env: Readonly<Record<string, string | undefined>> = process.env): IdentityEnvConfig {
  const present: Record<string, string> = {};
  for (const key of Object.keys(identityEnvSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") present[key] = value;
  }
  const parsed = identityEnvSchema.safeParse(present);
  if (!parsed.success) {
    throw new IdentityConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  const platformCredentials: Record<string, { clientId: string; clientSecret: string }> = {};
  const platformEndpoints: Record<string, PlatformEndpoints> = {};
  const problems: string[] = [];
  for (const p of PLATFORM_ENV) {
    const endpoints: { authorizeUrl?: string; tokenUrl?: string; apiUrl?: string } = {};
    for (const [field, name] of [["authorizeUrl", `OVATION_${p}_AUTHORIZE_URL`], ["tokenUrl", `OVATION_${p}_TOKEN_URL`], ["apiUrl", API_URL_ENV[p]]] as const) {
      const value = env[name];
      if (value === undefined || value === "") continue;
      const checked = urlSchema.safeParse(value);
      if (checked.success) endpoints[field] = checked.data;
      else problems.push(`${name}: must be an absolute http(s) URL`);
    }
    platformEndpoints[p.toLowerCase()] = Object.freeze(endpoints);
    const clientId = env[`OVATION_${p}_CLIENT_ID`];
    const clientSecret = env[`OVATION_${p}_CLIENT_SECRET`];
    if (clientId && clientSecret) platformCredentials[p.toLowerCase()] = { clientId, clientSecret };
  }
  if (problems.length > 0) throw new IdentityConfigError(problems);
  // Without OVATION_ID_URL the identity module lives on this server: its public URL, if set, is ours.
  const publicUrl = urlSchema.safeParse(env.OVATION_PUBLIC_URL);
  return Object.freeze({
    idUrl: e.OVATION_ID_URL ?? (publicUrl.success ? publicUrl.data : undefined),
    smtpUrl: e.OVATION_SMTP_URL,
    mailFrom: e.OVATION_MAIL_FROM,
    lifetimes: Object.freeze({
      ...DEFAULT_LIFETIMES,
      ...(e.OVATION_ACCESS_TOKEN_TTL ? { accessToken: e.OVATION_ACCESS_TOKEN_TTL } : {}),
      ...(e.OVATION_REFRESH_TOKEN_TTL ? { refreshToken: e.OVATION_REFRESH_TOKEN_TTL } : {}),
      ...(e.OVATION_EAT_TTL ? { eat: e.OVATION_EAT_TTL } : {}),
      ...(e.OVATION_EAT_CODE_TTL ? { eatCode: e.OVATION_EAT_CODE_TTL } : {}),
    }),
    platformCredentials: Object.freeze(platformCredentials),
    platformEndpoints: Object.freeze(platformEndpoints),
  });
}
