import { PLATFORMS, isBuiltInPlatform } from "../platforms.js";
import type { Platform } from "../platforms.js";
import type { PlatformAlertDeclaration, PlatformDeclaration } from "./platform-declaration.js";
import { ALERT_CATALOG } from "./catalog-data.js";
import type { CatalogAlertType } from "./catalog-types.js";

/** Display names of the built-in platforms. */
export const BUILT_IN_PLATFORM_NAMES: Readonly<Record<Platform, string>> = {
  twitch: "Twitch",
  youtube: "YouTube",
  kick: "Kick",
  tiktok: "TikTok",
  ovation: "Ovation",
};

/**
 * The platform-neutral alert types a plugin platform gets when it declares none, taken from the
 * catalog entry of the platform where each type has its plainest shape (follows and subs as on Kick,
 * a raid as on Twitch, a tip as Ovation's `donation`).
 */
const NEUTRAL_SOURCES: readonly (readonly [type: string, from: Platform])[] = [
  ["follow", "kick"],
  ["subscribe", "kick"],
  ["re-subscribe", "kick"],
  ["gift-subscribe", "kick"],
  ["raid", "twitch"],
  ["donation", "ovation"],
];

/** The platform-neutral alert types with their parameters and default texts (see {@link NEUTRAL_SOURCES}). */
export const NEUTRAL_ALERT_TYPES: readonly PlatformAlertDeclaration[] = NEUTRAL_SOURCES.map(([type, from]) => {
  const entry = ALERT_CATALOG.find((t) => t.type === type)?.platforms.find((p) => p.platform === from);
  if (!entry) throw new Error(`catalog has no ${type} on ${from}`);
  return { type, parameters: entry.parameters, default: entry.default };
});

/** A platform of the registry: built in, or declared by a loaded plugin. */
export interface RegisteredPlatform {
  readonly id: string;
  readonly name: string;
  readonly builtIn: boolean;
  /** The alert types of a plugin platform (empty for a built-in one: those are in the catalog). */
  readonly alerts: readonly PlatformAlertDeclaration[];
}

/** The built-in platforms as registry entries. */
export function builtInPlatforms(): RegisteredPlatform[] {
  return PLATFORMS.map((id) => ({ id, name: BUILT_IN_PLATFORM_NAMES[id], builtIn: true, alerts: [] }));
}

/**
 * The registry entry of a plugin's platform `id` from its (already validated) declaration: the
 * display name defaults to the id, the alert types to {@link NEUTRAL_ALERT_TYPES}. A built-in id keeps
 * its name and catalog entries; the declared types its catalog does not have on that platform are
 * added (TikTok is a built-in platform id with no catalog entry: its plugin declares its types).
 */
export function pluginPlatform(id: string, declaration: PlatformDeclaration | undefined): RegisteredPlatform {
  if (isBuiltInPlatform(id)) {
    const missing = (declaration?.alerts ?? []).filter((alert) => !catalogHas(alert.type, id));
    return { id, name: BUILT_IN_PLATFORM_NAMES[id], builtIn: true, alerts: missing };
  }
  return { id, name: declaration?.name ?? id, builtIn: false, alerts: declaration?.alerts ?? NEUTRAL_ALERT_TYPES };
}

const catalogHas = (type: string, platform: string): boolean =>
  ALERT_CATALOG.some((entry) => entry.type === type && entry.platforms.some((p) => p.platform === platform));

/**
 * The alert catalog with the alert types of plugin platforms added: each declared type gains an
 * entry for the platform (types not in the catalog are ignored; the host refuses them at registration).
 */
export function catalogWithPlatforms(platforms: readonly RegisteredPlatform[]): CatalogAlertType[] {
  return ALERT_CATALOG.map((entry) => {
    const added = platforms.flatMap((platform) =>
      platform.alerts
        .filter((alert) => alert.type === entry.type && !entry.platforms.some((p) => p.platform === platform.id))
        .map((alert) => ({ platform: platform.id, parameters: alert.parameters, default: alert.default })),
    );
    return added.length === 0 ? entry : { ...entry, platforms: [...entry.platforms, ...added] };
  });
}
