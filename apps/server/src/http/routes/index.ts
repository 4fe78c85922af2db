import { existsSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import { assetsDir, renderBrowserSourceErrorPage, renderBrowserSourcePage } from "@ovation/browser-source";
import type { ZodApp } from "../types.js";
import { alertCatalogRoutes } from "./alert-catalog.js";
import { alertConfigRoutes } from "./alert-configs.js";
import { alertQueueRoutes } from "./alert-queue.js";
import { alertRoutes } from "./alerts.js";
import { botModuleRoutes } from "./bot-module-routes.js";
import { browserSourcePageRoutes } from "./browser-source-pages.js";
import type { BrowserSourcePageRenderer } from "./browser-source-pages.js";
import { browserSourceRoutes } from "./browser-source-routes.js";
import { healthRoutes } from "./health.js";
import { managerRoutes } from "./manager-routes.js";
import { mediaRoutes } from "./media.js";
import { pluginRoutes } from "./plugin-routes.js";
import { simulateRoutes } from "./simulate-routes.js";
import { ttsRoutes } from "./tts.js";
import { userRoutes } from "./user-routes.js";

const pageRenderer: BrowserSourcePageRenderer = {
  render: renderBrowserSourcePage,
  renderError: renderBrowserSourceErrorPage,
  assetsDir,
};

/** Registers every route of the app. */
export async function registerRoutes(app: ZodApp): Promise<void> {
  await healthRoutes(app);
  await userRoutes(app);
  await browserSourceRoutes(app);
  await alertCatalogRoutes(app);
  await alertRoutes(app);
  await alertQueueRoutes(app);
  await alertConfigRoutes(app);
  await botModuleRoutes(app);
  await ttsRoutes(app);
  await pluginRoutes(app);
  await simulateRoutes(app);
  await managerRoutes(app);
  await mediaRoutes(app);
  await browserSourcePageRoutes(app, pageRenderer);
  if (existsSync(pageRenderer.assetsDir)) {
    await app.register(fastifyStatic, {
      root: pageRenderer.assetsDir,
      prefix: "/browser-source/assets/",
      decorateReply: false,
      index: false,
      maxAge: 3_600_000,
      // Fonts are fetched with CORS when the page is served from another host (OVATION_BROWSER_SOURCE_URL).
      setHeaders: (res) => void res.header("access-control-allow-origin", "*"),
    });
  } else {
    app.log.warn({ assetsDir: pageRenderer.assetsDir }, "browser-source assets are not built (run npm run build); pages will load without them");
  }
}
