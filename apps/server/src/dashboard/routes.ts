import { existsSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import { DASHBOARD_CLIENT_ID, buildDashboardCsp, dashboardAssetsDir, renderDashboardHtml } from "@ovation/dashboard";
import type { DashboardBootstrap } from "@ovation/dashboard";
import type { FastifyInstance, FastifyReply } from "fastify";
import { DASHBOARD_PATH, dashboardUrl } from "./dashboard-client.js";

const HIDDEN = { schema: { hide: true } } as const;

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
      maxAge: 3_600_000,
      setHeaders: (res) => void res.header("x-content-type-options", "nosniff"),
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
