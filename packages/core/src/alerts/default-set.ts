import { ALERT_CATALOG } from "./catalog-data.js";
import type { CatalogAlertType } from "./catalog-types.js";
import type { AlertSet } from "./schemas.js";
import { alertSetSchema } from "./schemas.js";

/**
 * A ready AE4 alert set for a new user: every catalog type on every platform it exists on, enabled,
 * with the catalog's default title/subtitle/chat_message, and one catch-all variation per type
 * (`type === <type>`, no overrides) so every alert shows. Validated before it is returned. Pass
 * `options.catalog` (`catalogWithPlatforms(...)`) to include the alert types of plugin platforms.
 */
export function buildDefaultAlertSet(owner: { id: number; user_id: number }, options: { catalog?: readonly CatalogAlertType[] } = {}): AlertSet {
  const catalog = options.catalog ?? ALERT_CATALOG;
  return alertSetSchema.parse({
    id: owner.id,
    version: 4,
    user_id: owner.user_id,
    active: true,
    default: {},
    defaults: catalog.flatMap((entry) =>
      entry.platforms.map((p) => ({
        platform: p.platform,
        type: entry.type,
        name: entry.name,
        enabled: true,
        default: { ...p.default },
      })),
    ),
    variations: catalog.map((entry) => ({
      name: `Every ${entry.name}`,
      conditions: { "===": [{ var: "type" }, entry.type] },
      overrides: {},
    })),
  });
}
