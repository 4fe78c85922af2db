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
}

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
  for (const p of PLATFORM_ENV) {
    const clientId = env[`OVATION_${p}_CLIENT_ID`];
    const clientSecret = env[`OVATION_${p}_CLIENT_SECRET`];
    if (clientId && clientSecret) platformCredentials[p.toLowerCase()] = { clientId, clientSecret };
  }
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
  });
}
