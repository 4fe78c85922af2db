import { z } from "zod";

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

/** zod schema for a platform on input: accepts the `own3d` alias and yields the canonical id. */
export const platformSchema = z
  .string()
  .transform(normalizePlatform)
  .pipe(z.enum(PLATFORMS, { error: () => `must be one of ${PLATFORMS.join(", ")} (or own3d)` }));
