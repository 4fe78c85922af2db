import type { Platform } from "../platforms.js";
import type { ALERT_TYPES } from "./catalog-data.js";
import { ALERT_CATALOG } from "./catalog-data.js";
import type { CatalogAlertType, CatalogParameter, CatalogPlatform, JsonValue } from "./catalog-types.js";

/** An AE4 alert type name of the catalog. */
export type AlertType = (typeof ALERT_TYPES)[number];

const byType = new Map<string, CatalogAlertType>(ALERT_CATALOG.map((entry) => [entry.type, entry]));

/** Whether `name` is an alert type of the catalog. */
export function isAlertType(name: string): name is AlertType {
  return byType.has(name);
}

/** The catalog entry of an alert type, or undefined for a name that is not in the catalog. */
export function getCatalogType(type: string): CatalogAlertType | undefined {
  return byType.get(type);
}

/** The catalog entry of an alert type on one platform, or undefined when the type does not exist there. */
export function getCatalogPlatform(type: string, platform: string): CatalogPlatform | undefined {
  return byType.get(type)?.platforms.find((entry) => entry.platform === platform);
}

/** The parameters of an alert type on a platform (empty when the pair is not in the catalog). */
export function catalogParameters(type: string, platform: string): readonly CatalogParameter[] {
  return getCatalogPlatform(type, platform)?.parameters ?? [];
}

/** Every (type, platform) pair of the catalog, in catalog order. */
export function catalogPairs(): { type: AlertType; platform: Platform }[] {
  return ALERT_CATALOG.flatMap((entry) =>
    entry.platforms.map((p) => ({ type: entry.type as AlertType, platform: p.platform as Platform })),
  );
}

/**
 * Example data for a test alert of `type` on `platform`: the first catalog example of that platform,
 * else every parameter's `example`. Empty for a pair that is not in the catalog. `catalog` is the
 * catalog to read (default the built-in one; pass `catalogWithPlatforms(...)` for plugin platforms).
 */
export function exampleAlertData(type: string, platform: string, catalog?: readonly CatalogAlertType[]): Record<string, JsonValue> {
  const entry = catalog ? catalog.find((t) => t.type === type) : byType.get(type);
  const example = entry?.examples.find((e) => e.platform === platform);
  if (example) return { ...example.parameters };
  const parameters = entry?.platforms.find((p) => p.platform === platform)?.parameters ?? [];
  return Object.fromEntries(parameters.map((p) => [p.name, p.example]));
}
