import type { CatalogAlertType } from "@ovation/core/alerts";
import { useEffect, useState } from "preact/hooks";
import { useApi } from "../../app-context.js";

/** The server's alert catalog (`GET /v1/alerts/catalog`: types with their platforms, parameters and examples), or null while loading. */
export function useCatalog(): { catalog: CatalogAlertType[] | null; error: unknown } {
  const api = useApi();
  const [catalog, setCatalog] = useState<CatalogAlertType[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let cancelled = false;
    api.alerts.catalog().then(
      (answer) => !cancelled && setCatalog(answer.types as unknown as CatalogAlertType[]),
      (e: unknown) => !cancelled && setError(e),
    );
    return () => {
      cancelled = true;
    };
  }, [api]);
  return { catalog, error };
}

/** Every data key a condition may read on any type (the catalog's `conditional` parameters), sorted. */
export function conditionVariablesOf(catalog: readonly CatalogAlertType[]): string[] {
  const names = new Set<string>();
  for (const type of catalog) for (const platform of type.platforms) for (const p of platform.parameters) if (p.conditional) names.add(p.name);
  return [...names].sort();
}

/** Every platform named in the catalog. */
export function platformsOf(catalog: readonly CatalogAlertType[]): string[] {
  return [...new Set(catalog.flatMap((t) => t.platforms.map((p) => String(p.platform))))].sort();
}
