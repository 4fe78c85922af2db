/**
 * What the server hands the dashboard, embedded as JSON in `<script id="ovation-dashboard-bootstrap">`
 * of every dashboard page (the app reads it before anything else).
 */
export interface DashboardBootstrap {
  /** Absolute base URL of the API host, without a trailing slash (`/v1`, `/api` below it when identity is local). */
  api_base: string;
  /** Path the dashboard is served at (`/dashboard`, or below the public URL's own path). */
  base_path: string;
  /** The OAuth issuer (`<identity host>/oauth`); discovery is at `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  /** Base URL of the identity API (`<identity host>/api`): EATs, security settings, tokens. */
  identity_api: string;
  /** The dashboard's public OAuth client. */
  client_id: string;
  /** Where the authorization server sends the browser back: `<public url>/dashboard/callback`. */
  redirect_uri: string;
  /** Base URL of the browser-source page (its assets are at `<api_base>/browser-source/assets/`). */
  browser_source_url: string;
}

/** Id of the `<script type="application/json">` element that carries the bootstrap. */
export const DASHBOARD_BOOTSTRAP_ELEMENT_ID = "ovation-dashboard-bootstrap";

/** Id of the element the app renders into. */
export const DASHBOARD_ROOT_ELEMENT_ID = "ovation-dashboard";

/** Built-in OAuth client id of the dashboard on a host that runs the identity module. */
export const DASHBOARD_CLIENT_ID = "ovation-dashboard";
