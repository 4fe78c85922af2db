import { z } from "zod";
import { browserSourceGenerateBodySchema as generateBodySchema, browserSourceSchema } from "@ovation/core/api";
import { callerOf } from "../authenticate.js";
import { ApiError, fieldError } from "../../errors.js";
import type { BrowserSourceRecord } from "../../store/records.js";
import { authErrorResponses, errorBodySchema, idParam } from "../types.js";
import type { ZodApp } from "../types.js";

/** The API view of a browser source. */
export function presentBrowserSource(record: BrowserSourceRecord, browserSourceUrl: string): z.infer<typeof browserSourceSchema> {
  return {
    id: record.id,
    identifier: record.identifier,
    browser_source_type: record.browser_source_type,
    access_token: record.access_token,
    user_id: String(record.user_id),
    created_at: record.created_at,
    updated_at: record.updated_at,
    browser_source_url: `${browserSourceUrl}/${record.browser_source_type}/${record.access_token}`,
  };
}

/** Browser-source generation, listing and regeneration (scope `alerts:manage`). */
export async function browserSourceRoutes(app: ZodApp): Promise<void> {
  const { repos, hub, config } = app.ovation;
  const auth = app.ovation.authenticate("alerts:manage");
  const present = (r: BrowserSourceRecord) => presentBrowserSource(r, config.browserSourceUrl);

  app.post(
    "/v1/browser-source/generate",
    {
      preHandler: auth,
      schema: {
        tags: ["browser sources"],
        summary: "Generate (or get again) the browser source of a type and identifier",
        description:
          "`alerts`: optional identifier = an alert set id (omitted: the default alert source, which follows the active set). " +
          "`effect-alerts`: no identifier. `scenes`, `goalbars`: identifier required. The same type and identifier return the same record.",
        security: [{ bearerAuth: [] }],
        body: generateBodySchema,
        response: { 200: browserSourceSchema, 201: browserSourceSchema, ...authErrorResponses },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { browser_source_type: type, identifier } = request.body;
      if (type === "effect-alerts" && identifier !== undefined) {
        throw fieldError("identifier", "The identifier field must be omitted for effect-alerts.");
      }
      if ((type === "scenes" || type === "goalbars") && identifier === undefined) {
        throw fieldError("identifier", `The identifier field is required for ${type} (the ${type === "scenes" ? "scene" : "goal bar"} id).`);
      }
      if (type === "alerts" && identifier !== undefined) {
        const setId = Number(identifier);
        if (!/^\d+$/.test(identifier) || !repos.alertSets.getForUser(caller.userId, setId)) {
          throw fieldError("identifier", `The identifier field must be the id of one of your alert sets (no alert set ${identifier}).`);
        }
      }
      const { record, created } = repos.browserSources.findOrCreate(caller.userId, type, identifier ?? null);
      await repos.store.persisted();
      return reply.code(created ? 201 : 200).send(present(record));
    },
  );

  app.get(
    "/v1/browser-source",
    {
      preHandler: auth,
      schema: {
        tags: ["browser sources"],
        summary: "List your browser sources",
        security: [{ bearerAuth: [] }],
        response: { 200: z.object({ data: z.array(browserSourceSchema) }), ...authErrorResponses },
      },
    },
    async (request) => ({ data: repos.browserSources.listForUser(callerOf(request).userId).map(present) }),
  );

  app.post(
    "/v1/browser-source/:id/regenerate",
    {
      preHandler: auth,
      schema: {
        tags: ["browser sources"],
        summary: "Give a browser source a new access token (revokes a leaked URL)",
        security: [{ bearerAuth: [] }],
        params: z.object({ id: idParam }),
        response: { 200: browserSourceSchema, 404: errorBodySchema, ...authErrorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const record = repos.browserSources.regenerate(caller.userId, request.params.id);
      if (!record) throw new ApiError("OVATION_ERR_BROWSER_SOURCES_NOT_FOUND");
      await repos.store.persisted();
      hub.disconnectBrowserSource(record.id);
      hub.browserSourceUpdated(caller.userId, { browser_source_id: record.id, alert_set_id: null, reason: "browser-source-regenerated" });
      return present(record);
    },
  );
}
