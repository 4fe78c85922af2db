import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import { DASHBOARD_CLIENT_ID, buildDashboardCsp, dashboardAssetsDir, renderDashboardHtml } from "@ovation/dashboard";
import type { DashboardBootstrap } from "@ovation/dashboard";
import type { FastifyInstance, FastifyReply } from "fastify";
import { DASHBOARD_PATH, dashboardUrl } from "./dashboard-client.js";

const HIDDEN = { schema: { hide: true } } as const;

/** A year: the longest lifetime caches honour, for files whose name changes with their content. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * Cache-Control of a built dashboard asset, by its path below the assets directory. The chunks under
 * `chunks/` carry a hash of their content in their name (build.mjs), so a cache may keep them for
 * good: a new build names its chunks anew. `app.js` and `app.css` keep their names across builds, so
 * a browser asks again every time (a 304 when unchanged); a stale entry would ask for chunks that a
 * newer build no longer has.
 */
function assetCacheControl(file: string): string {
  return file.split(path.sep).join("/").startsWith("chunks/") ? IMMUTABLE : "no-cache";
}

/** What the dashboard routes need from the host. */
export interface DashboardRouteOptions {
  /** The identity host (`/oauth` and `/api` below it), read per request: the local module knows it once listening. */
  identityBase: () => string;
  /** The OAuth client id the dashboard signs in with (the built-in one unless the identity host is remote). */
  clientId?: string;
  /** Directory of the built assets (default the package's `dist/assets`). */
  assetsDir?: string;
}

/**
 * Serves the dashboard: its assets at `/dashboard/assets/`, its one HTML document at `/dashboard`
 * and every path below it (deep links; the app routes on the client), and `/` redirecting to it
 * (the identity module's front page is only the fallback when the host serves nothing at `/`).
 */
export async function dashboardRoutes(app: FastifyInstance, options: DashboardRouteOptions): Promise<void> {
  const { config } = app.ovation;
  const assetsDir = options.assetsDir ?? dashboardAssetsDir;
  const base = dashboardUrl(config.publicUrl);
  const basePath = new URL(base).pathname;
  const apiOrigin = new URL(config.publicUrl).origin;

  const bootstrap = (): DashboardBootstrap => {
    const identity = options.identityBase().replace(/\/+$/, "");
    return {
      api_base: config.publicUrl.replace(/\/+$/, ""),
      base_path: basePath,
      issuer: `${identity}/oauth`,
      identity_api: `${identity}/api`,
      client_id: options.clientId ?? DASHBOARD_CLIENT_ID,
      redirect_uri: `${base}/callback`,
      browser_source_url: config.browserSourceUrl,
    };
  };

  const page = (reply: FastifyReply): FastifyReply => {
    const boot = bootstrap();
    return reply
      .headers({
        "content-security-policy": buildDashboardCsp({ api: apiOrigin, identity: new URL(boot.issuer).origin }),
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
      })
      .type("text/html; charset=utf-8")
      .send(renderDashboardHtml(boot));
  };

  if (existsSync(assetsDir)) {
    await app.register(fastifyStatic, {
      root: assetsDir,
      prefix: `${DASHBOARD_PATH}/assets/`,
      decorateReply: false,
      index: false,
      // Cache-Control per file (assetCacheControl); ETag and Last-Modified stay, so a revalidation is a 304.
      cacheControl: false,
      setHeaders: (res, file) => {
        res.header("x-content-type-options", "nosniff");
        res.header("cache-control", assetCacheControl(path.relative(assetsDir, file)));
        // Module scripts (app.js and its chunks) must come as JavaScript; say which one and its charset.
        if (file.endsWith(".js")) res.header("content-type", "text/javascript; charset=utf-8");
      },
    });
  } else {
    app.log.warn({ assetsDir }, "dashboard assets are not built (run npm run build); /dashboard will load without them");
  }
  app.get(DASHBOARD_PATH, HIDDEN, async (_request, reply) => page(reply));
  app.get(`${DASHBOARD_PATH}/*`, HIDDEN, async (request, reply) => {
    // A missing asset is a 404, not the app's page (a stale tab asking for an old bundle).
    if (request.url.startsWith(`${DASHBOARD_PATH}/assets/`)) return reply.code(404).type("text/plain").send("Not found");
    return page(reply);
  });
  if (!app.hasRoute({ method: "GET", url: "/" })) app.get("/", HIDDEN, async (_request, reply) => reply.redirect(basePath, 302));
}
