import { uniqueSources as unique, webSocketTwin } from "@ovation/browser-source";

/** The origins a dashboard page talks to besides its own. */
export interface DashboardCspOrigins {
  /** Origin of the API host (usually the page's own). */
  api: string;
  /** Origin of the identity host (token endpoint, identity API). */
  identity: string;
}

/**
 * The dashboard's Content-Security-Policy: scripts and styles only from the page's own origin (no
 * inline script, no eval), connections to the API and identity hosts (and their ws/wss twins for
 * socket.io), forms only to the identity host. Images and sounds may come from any http(s) host,
 * because the alert preview shows the streamer's media from wherever it is hosted. No framing.
 */
export function buildDashboardCsp(origins: DashboardCspOrigins): string {
  const own = unique(["'self'", origins.api]).join(" ");
  const connect = unique(["'self'", origins.api, origins.identity, webSocketTwin(origins.api), webSocketTwin(origins.identity)]).join(" ");
  return [
    "default-src 'none'",
    `script-src ${own}`,
    `style-src ${own}`,
    `font-src ${own}`,
    `img-src ${own} https: http: data: blob:`,
    `media-src ${own} https: http: data: blob:`,
    `connect-src ${connect}`,
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${unique(["'self'", origins.identity]).join(" ")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}
