import { z } from "zod";

/** A plugin setting that is an http:// or https:// URL. */
export const httpUrlSchema = z.string().regex(/^https?:\/\/[^\s]+$/, "must be an http:// or https:// URL");

/** A plugin setting that is an http:// or https:// origin (no path). */
export const httpOriginSchema = z.string().regex(/^https?:\/\/[^\s/]+\/?$/, "must be an http:// or https:// origin (no path)");

/**
 * A linked account's OAuth tokens as a plugin takes them: the refresh token is required, the access
 * token is refreshed when absent or about to expire.
 */
export const oauthTokensSchema = z.object({
  accessToken: z.string().min(1).optional(),
  refreshToken: z.string().min(1),
  /** Access token expiry in ms since the epoch (0 or absent: unknown). */
  expiresAt: z.number().int().nonnegative().optional(),
});
