/**
 * @ovation/dashboard: the streamer's dashboard. The Node side renders its one HTML document and
 * tells the host where the built assets are; the browser side (src/app, bundled by build.mjs) is a
 * Preact app that signs in through Ovation's OAuth server and calls the public API.
 */
export { renderDashboardHtml } from "./html.js";
export { buildDashboardCsp } from "./csp.js";
export type { DashboardCspOrigins } from "./csp.js";
export { dashboardAssetsDir } from "./assets-dir.js";
export { DASHBOARD_BOOTSTRAP_ELEMENT_ID, DASHBOARD_CLIENT_ID, DASHBOARD_ROOT_ELEMENT_ID } from "./bootstrap.js";
export type { DashboardBootstrap } from "./bootstrap.js";
export { DASHBOARD_BUNDLE_BUDGET } from "./budget.js";
