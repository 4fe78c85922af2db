import * as z from "zod";

/** The four streaming platforms plus the service's own platform (tips made through Ovation). */
export const PLATFORMS = ["twitch", "youtube", "kick", "tiktok", "ovation"] as const;
/** A platform identifier as used in rooms, alert configs and chat events. */
export type Platform = (typeof PLATFORMS)[number];

/** Names accepted on input for the service's own platform: the reference calls it `own3d`. */
export const OWN_PLATFORM_ALIASES: readonly string[] = ["own3d"];

/** Maps an input platform name to its canonical id (`own3d` -> `ovation`); unknown names pass through. */
export function normalizePlatform(name: string): string {
  const lower = name.toLowerCase();
  return OWN_PLATFORM_ALIASES.includes(lower) ? "ovation" : lower;
}

/** Pattern of a platform id: a built-in one or one a plugin declares (`metadata.platform`). */
export const PLATFORM_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** Whether `id` is one of the built-in {@link PLATFORMS}. */
export function isBuiltInPlatform(id: string): id is Platform {
  return (PLATFORMS as readonly string[]).includes(id);
}

/**
 * zod schema for a platform on input: accepts the `own3d` alias and yields the canonical id. The
 * registry is open: besides the built-in {@link PLATFORMS}, any well-formed id is accepted, so an
 * alert set may hold the platform of a plugin (and keeps it while that plugin is not loaded; the
 * server reports such platforms).
 */
export const platformSchema = z
  .string()
  .transform(normalizePlatform)
  .pipe(
    z.string().regex(PLATFORM_ID_PATTERN, {
      error: () => `must be one of ${PLATFORMS.join(", ")} (or own3d), or a plugin's platform id (1-32 characters of a-z, 0-9, _ and -)`,
    }),
  );
