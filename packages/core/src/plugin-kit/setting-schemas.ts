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

/** A setting as the host reads it: optional, and without the default the plugin's options apply. */
export type HostSetting<Schema extends z.ZodType> = z.ZodOptional<Schema extends z.ZodDefault<infer Inner extends z.ZodType> ? Inner : Schema>;

/**
 * The host's view of a plugin's settings, derived from the plugin's own options: each key optional and
 * its default left out, so the host passes on only what the operator set and the plugin applies the
 * default (one declaration of each setting's name, validation and default serves both).
 */
export function hostSettings<Shape extends Record<string, z.ZodType>>(shape: Shape): { [Key in keyof Shape]: HostSetting<Shape[Key]> } {
  const view: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape)) view[key] = (schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema).optional();
  return view as { [Key in keyof Shape]: HostSetting<Shape[Key]> };
}
