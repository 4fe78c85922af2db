import { alertCatalogSchema } from "@ovation/core/api";
import { ALERT_CATALOG, builtInPlatforms, catalogWithPlatforms } from "@ovation/core/alerts";
import type { CatalogAlertType, RegisteredPlatform } from "@ovation/core/alerts";
import type { FastifyInstance } from "fastify";
import type { ZodApp } from "../types.js";

/** The platform registry of the app: built-ins plus the loaded plugins' platforms. */
export function platformRegistry(app: FastifyInstance): RegisteredPlatform[] {
  return app.hasDecorator("platformPlugins") ? app.platformPlugins.platforms() : builtInPlatforms();
}

/** The alert catalog of the app, with the alert types of the loaded plugins' platforms. */
export function alertCatalog(app: FastifyInstance): readonly CatalogAlertType[] {
  return app.hasDecorator("platformPlugins") ? catalogWithPlatforms(app.platformPlugins.platforms()) : ALERT_CATALOG;
}

/** `GET /v1/alerts/catalog`: the platforms and alert types this server knows (public, no user data). */
export async function alertCatalogRoutes(app: ZodApp): Promise<void> {
  app.get(
    "/v1/alerts/catalog",
    {
      schema: {
        tags: ["alerts"],
        summary: "Alert catalog and platforms",
        description:
          "The platforms (built-in and those of loaded plugins) and every AE4 alert type with its parameters and default texts per platform. " +
          "A plugin platform that declares no types gets the platform-neutral ones (follow, subscribe, re-subscribe, gift-subscribe, raid, donation).",
        response: { 200: alertCatalogSchema },
      },
    },
    async () => ({
      platforms: platformRegistry(app).map((p) => ({ id: p.id, name: p.name, built_in: p.builtIn })),
      types: alertCatalog(app).map((t) => ({ ...t })),
    }),
  );
}
