import type { BrowserSourceBootstrap } from "./browser-source-bootstrap.js";
import { escapeHtml, jsonForScript } from "./html.js";

/**
 * The page served while the @ovation/browser-source package is not available: it carries the
 * bootstrap (so a client can still read it) and says which source this is. It plays nothing.
 */
export function renderFallbackPage(bootstrap: BrowserSourceBootstrap): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ovation ${escapeHtml(bootstrap.type)}</title>
<script type="application/json" id="ovation-bootstrap">${jsonForScript(bootstrap)}</script></head>
<body style="background:transparent"><p id="ovation-status" hidden>${escapeHtml(bootstrap.type)}</p></body></html>`;
}
