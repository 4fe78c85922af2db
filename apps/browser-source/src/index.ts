/**
 * @ovation/browser-source: the page OBS loads. The Node side renders the HTML and tells the server
 * where the built browser assets are; the browser side (src/client, bundled by build.mjs) joins the
 * room, resolves alerts with @ovation/core and plays them.
 */
export { renderBrowserSourcePage, renderBrowserSourceErrorPage } from "./page.js";
export { assetsDir } from "./assets-dir.js";
export { BrowserSourcePageError } from "./errors.js";
export { escapeHtml, jsonForScriptElement } from "./html.js";
export { unique as uniqueSources, webSocketTwin } from "./csp.js";
export { BROWSER_SOURCE_TYPES, isBrowserSourceType } from "./bootstrap.js";
export type { BrowserSourceBootstrap, BrowserSourceType } from "./bootstrap.js";
