import { DASHBOARD_CLIENT_ID } from "@ovation/dashboard";
import type { OAuthClientRecord } from "../identity/index.js";

/** Where the dashboard lives below the public URL, and its callback paths. */
export const DASHBOARD_PATH = "/dashboard";

/** The dashboard's base URL for a public URL (`<public url>/dashboard`). */
export function dashboardUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, "")}${DASHBOARD_PATH}`;
}

/**
 * The dashboard's built-in OAuth client: public (authorization code + PKCE S256, no secret),
 * redirect URI `<public url>/dashboard/callback`, sign-out returning to `<public url>/dashboard/signed-out`.
 * The identity module serves it beside the registered clients and asks no consent for it.
 */
export function dashboardClient(publicUrl: string): OAuthClientRecord {
  const base = dashboardUrl(publicUrl);
  return {
    client_id: DASHBOARD_CLIENT_ID,
    name: "Ovation dashboard",
    secret_hash: null,
    redirect_uris: [`${base}/callback`],
    post_logout_redirect_uris: [`${base}/signed-out`],
    public: true,
    created_at: "1970-01-01T00:00:00.000Z",
  };
}
