/**
 * Bundle size budget of the dashboard, in bytes after gzip: build.mjs fails when `app.js` or
 * `app.css` grows past it (apps/dashboard/README.md says why these figures).
 */
export const DASHBOARD_BUNDLE_BUDGET = Object.freeze({ js: 120 * 1024, css: 16 * 1024 });
