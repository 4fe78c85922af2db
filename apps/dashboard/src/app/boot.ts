import { DASHBOARD_BOOTSTRAP_ELEMENT_ID } from "../bootstrap.js";
import type { DashboardBootstrap } from "../bootstrap.js";

const FIELDS = ["api_base", "base_path", "issuer", "identity_api", "client_id", "redirect_uri", "browser_source_url"] as const;

/** Reads the bootstrap the server embedded in the page; throws naming the field that is missing. */
export function readBootstrap(doc: Document): DashboardBootstrap {
  const element = doc.getElementById(DASHBOARD_BOOTSTRAP_ELEMENT_ID);
  if (!element?.textContent) throw new Error("the page carries no dashboard bootstrap");
  const value = JSON.parse(element.textContent) as Record<string, unknown>;
  for (const field of FIELDS) if (typeof value[field] !== "string") throw new Error(`the dashboard bootstrap has no ${field}`);
  return value as unknown as DashboardBootstrap;
}
