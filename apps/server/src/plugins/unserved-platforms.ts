import type { Repositories } from "../store/repositories.js";

/** An alert set whose type defaults name platforms that no built-in platform or loaded plugin serves. */
export interface UnservedPlatforms {
  alert_set_id: number;
  user_id: number;
  platforms: string[];
}

/**
 * The alert sets that name platforms outside `registry` (the built-in platforms and those of the
 * loaded plugins). Such sets are kept as they are (the platform's alerts show again once its plugin
 * is loaded); this only reports them, for `ovation plugins` and the start log.
 */
export function unservedPlatforms(repos: Repositories, registry: readonly string[]): UnservedPlatforms[] {
  const known = new Set(registry);
  const report: UnservedPlatforms[] = [];
  for (const set of repos.store.data.alert_sets) {
    const defaults = (set.config as { defaults?: unknown }).defaults;
    if (!Array.isArray(defaults)) continue;
    const platforms = new Set<string>();
    for (const entry of defaults) {
      const platform = (entry as { platform?: unknown } | null)?.platform;
      if (typeof platform === "string" && !known.has(platform)) platforms.add(platform);
    }
    if (platforms.size > 0) report.push({ alert_set_id: set.id, user_id: set.user_id, platforms: [...platforms].sort() });
  }
  return report;
}
