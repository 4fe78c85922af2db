/**
 * Size budget of the dashboard's browser code, in bytes after gzip, checked per chunk by build.mjs
 * (the build fails past it) and by `src/__tests__/bundle-budget.test.ts`. The bundle is ES modules
 * split by esbuild: `app.js` and the chunks it imports statically are the first load (the shell,
 * sign-in and the overview); every other page is a chunk fetched when it first opens, and code that
 * several pages share is a chunk of its own. apps/dashboard/README.md lists the measured sizes.
 */
export const DASHBOARD_BUNDLE_BUDGET = Object.freeze({
  /** app.js with the chunks it imports statically, together: what loads before the first page shows. */
  firstLoad: 60 * 1024,
  /** Any other chunk: a page's own, or code pages share. */
  chunk: 24 * 1024,
  /**
   * The alert engine: zod and the AE4 schemas (the same code the server validates with), the
   * conditions engine and the browser-source renderer of the live preview. Only the chunks that
   * `entries` (source paths below apps/dashboard) alone load may hold `packages` and weigh up to
   * `chunk`; no other page may load them.
   */
  engine: Object.freeze({
    chunk: 56 * 1024,
    entries: Object.freeze(["src/app/pages/alert-sets/editor.tsx", "src/app/pages/alert-sets/default-set.ts"]),
    packages: Object.freeze(["zod"]),
  }),
  /** app.css (every page's styles; one file). */
  css: 16 * 1024,
});

/** The shape of {@link DASHBOARD_BUNDLE_BUDGET}. */
export type DashboardBundleBudget = typeof DASHBOARD_BUNDLE_BUDGET;
