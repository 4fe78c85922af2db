import { escapeHtml, jsonForScriptElement } from "@ovation/browser-source";
import { DASHBOARD_BOOTSTRAP_ELEMENT_ID, DASHBOARD_ROOT_ELEMENT_ID } from "./bootstrap.js";
import type { DashboardBootstrap } from "./bootstrap.js";

/**
 * The one HTML document of the dashboard (every deep link gets it; the app routes on the client).
 * The bootstrap is JSON that cannot break out of its element; script and stylesheet load from
 * `<base_path>/assets/` (serve {@link dashboardAssetsDir} there). No inline script or style, so the
 * page runs under `buildDashboardCsp` without nonces.
 */
export function renderDashboardHtml(bootstrap: DashboardBootstrap): string {
  const assets = `${escapeHtml(bootstrap.base_path)}/assets`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>Ovation dashboard</title>
<link rel="stylesheet" href="${assets}/app.css">
<script id="${DASHBOARD_BOOTSTRAP_ELEMENT_ID}" type="application/json">${jsonForScriptElement(bootstrap)}</script>
<script type="module" src="${assets}/app.js"></script>
</head>
<body>
<div id="${DASHBOARD_ROOT_ELEMENT_ID}" class="app-root" data-state="loading"><p class="boot-message" role="status">Loading the dashboard…</p></div>
<noscript><p class="boot-message">The Ovation dashboard needs JavaScript.</p></noscript>
</body>
</html>`;
}
