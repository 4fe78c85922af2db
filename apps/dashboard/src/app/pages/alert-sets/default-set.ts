import { buildDefaultAlertSet } from "@ovation/core/alerts";
import type { CatalogAlertType } from "@ovation/core/alerts";

/**
 * The body of a new alert set named `name`: the default set of this server's catalog (every type
 * on, one catch-all variation per type), validated by the engine's schema. The list page loads this
 * module with `import()` when a set is created, so the engine's schemas (zod) are in the editor's
 * chunks and not in the list's.
 */
export function newAlertSetBody(name: string, catalog: readonly CatalogAlertType[] | null): Record<string, unknown> {
  const { id: _id, user_id: _u, active: _a, ...rest } = buildDefaultAlertSet({ id: 1, user_id: 1 }, catalog ? { catalog } : {});
  return { ...rest, name };
}
