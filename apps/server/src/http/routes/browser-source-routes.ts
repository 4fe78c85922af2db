import { z } from "zod";
import {
  BROWSER_SOURCE_SETTINGS_SCHEMAS,
  browserSourceGenerateBodySchema as generateBodySchema,
  browserSourceSchema,
  browserSourceSettingsBodySchema,
  channelBrowserSourceSchema,
} from "@ovation/core/api";
import type { FastifyRequest } from "fastify";
import { actsAsManager, channelUserOf, channelRoute } from "../channel-routes.js";
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
    settings: readBrowserSourceSettings(record),
  };
}

/** The record's options with every default filled in (a record saved before an option existed reads the same way). */
export function readBrowserSourceSettings(record: BrowserSourceRecord): Record<string, unknown> {
  const parsed = BROWSER_SOURCE_SETTINGS_SCHEMAS[record.browser_source_type].safeParse(record.settings ?? {});
  return parsed.success ? (parsed.data as Record<string, unknown>) : (BROWSER_SOURCE_SETTINGS_SCHEMAS[record.browser_source_type].parse({}) as Record<string, unknown>);
}

/** A 422 naming every bad option (`settings.<path>`), Laravel style. */
function settingsError(issues: readonly z.core.$ZodIssue[]): ApiError {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = ["settings", ...issue.path.map(String)].join(".");
    (errors[field] ??= []).push(`The ${field} field ${issue.message}.`);
  }
  const first = Object.values(errors).flat()[0] ?? "The settings field is invalid.";
  return new ApiError("OVATION_ERR_HTTP_VALIDATION", { message: first, errors });
}

/**
 * Browser-source generation, listing, options and regeneration (scope `alerts:manage`), each also at
 * `/v1/bots/{user}/browser-source...` for a channel the caller manages. A manager never sees a
 * source's access token or address (they would show the channel's alerts anywhere) and may not
 * regenerate one (owner only): those stay the owner's.
 */
export async function browserSourceRoutes(app: ZodApp): Promise<void> {
  const { repos, hub, config } = app.ovation;
  const auth = app.ovation.authenticate("alerts:manage");
  const present = (request: FastifyRequest, r: BrowserSourceRecord) => {
    const view = presentBrowserSource(r, config.browserSourceUrl);
    return actsAsManager(request) ? { ...view, access_token: null, browser_source_url: null } : view;
  };
  const params = z.object({ id: idParam });
  const sourceSchema = (channel: boolean) => (channel ? channelBrowserSourceSchema : browserSourceSchema);

  channelRoute(
    app,
    { method: "POST", path: "/v1/browser-source/generate" },
    (form) => ({
      preHandler: auth,
      schema: {
        params: form.params,
        tags: ["browser sources"],
        summary: "Generate (or get again) the browser source of a type and identifier",
        description:
          "`alerts`: optional identifier = an alert set id (omitted: the default alert source, which follows the active set). " +
          "`effect-alerts`, `queue`, `poll`: no identifier needed. `scenes`, `goalbars`: identifier required. `chat`, `events`, `emotewall`: optional identifier " +
          "(a name, for several boxes with their own options). The same type and identifier return the same record.",
        security: [{ bearerAuth: [] }],
        body: generateBodySchema,
        response: { 200: sourceSchema(form.channel), 201: sourceSchema(form.channel), ...authErrorResponses },
      },
    }),
    async (request, reply) => {
      const userId = channelUserOf(request);
      const { browser_source_type: type, identifier } = request.body;
      if (type === "effect-alerts" && identifier !== undefined) {
        throw fieldError("identifier", "The identifier field must be omitted for effect-alerts.");
      }
      // chat, events and emotewall take an optional identifier: a name, so one user may keep several
      // boxes with different options (a chat for the game scene, another for "just chatting").
      if ((type === "scenes" || type === "goalbars") && identifier === undefined) {
        throw fieldError("identifier", `The identifier field is required for ${type} (the ${type === "scenes" ? "scene" : "goal bar"} id).`);
      }
      if (type === "alerts" && identifier !== undefined) {
        const setId = Number(identifier);
        if (!/^\d+$/.test(identifier) || !repos.alertSets.getForUser(userId, setId)) {
          throw fieldError("identifier", `The identifier field must be the id of one of your alert sets (no alert set ${identifier}).`);
        }
      }
      const { record, created } = repos.browserSources.findOrCreate(userId, type, identifier ?? null);
      await repos.store.persisted();
      return reply.code(created ? 201 : 200).send(present(request, record));
    },
  );

  channelRoute(
    app,
    { method: "GET", path: "/v1/browser-source" },
    (form) => ({
      preHandler: auth,
      schema: {
        params: form.params,
        tags: ["browser sources"],
        summary: "List your browser sources",
        security: [{ bearerAuth: [] }],
        response: { 200: z.object({ data: z.array(sourceSchema(form.channel)) }), ...authErrorResponses },
      },
    }),
    async (request) => ({ data: repos.browserSources.listForUser(channelUserOf(request)).map((r) => present(request, r)) }),
  );

  channelRoute(
    app,
    { method: "POST", path: "/v1/browser-source/:id/regenerate", params },
    (form) => ({
      preHandler: auth,
      schema: {
        tags: ["browser sources"],
        summary: "Give a browser source a new access token (revokes a leaked URL)",
        security: [{ bearerAuth: [] }],
        params: form.params,
        response: { 200: sourceSchema(form.channel), 404: errorBodySchema, ...authErrorResponses },
      },
    }),
    async (request) => {
      // A new token is a secret, and regenerating breaks the streamer's OBS: the owner's alone.
      const userId = channelUserOf(request, { ownerOnly: true });
      const record = repos.browserSources.regenerate(userId, request.params.id);
      if (!record) throw new ApiError("OVATION_ERR_BROWSER_SOURCES_NOT_FOUND");
      await repos.store.persisted();
      hub.disconnectBrowserSource(record.id);
      hub.browserSourceUpdated(userId, { browser_source_id: record.id, alert_set_id: null, reason: "browser-source-regenerated" });
      return present(request, record);
    },
  );

  channelRoute(
    app,
    { method: "PUT", path: "/v1/browser-source/:id/settings", params },
    (form) => ({
      preHandler: auth,
      schema: {
        tags: ["browser sources"],
        summary: "Save a browser source's options (docs/overlays.md); its pages reload them at once",
        description:
          "The whole option set of the source's type; a missing option takes its default. `scenes` parts must name your own browser sources (not the scene itself).",
        security: [{ bearerAuth: [] }],
        params: form.params,
        body: browserSourceSettingsBodySchema,
        response: { 200: sourceSchema(form.channel), 404: errorBodySchema, ...authErrorResponses },
      },
    }),
    async (request) => {
      const userId = channelUserOf(request);
      const record = repos.browserSources.getForUser(userId, request.params.id);
      if (!record) throw new ApiError("OVATION_ERR_BROWSER_SOURCES_NOT_FOUND");
      const parsed = BROWSER_SOURCE_SETTINGS_SCHEMAS[record.browser_source_type].safeParse(request.body.settings);
      if (!parsed.success) throw settingsError(parsed.error.issues);
      const settings = parsed.data as Record<string, unknown>;
      if (record.browser_source_type === "scenes") {
        const parts = (settings.parts ?? []) as Array<{ browser_source_id: number }>;
        parts.forEach((part, index) => {
          const target = repos.browserSources.getForUser(userId, part.browser_source_id);
          if (!target || target.id === record.id || target.browser_source_type === "scenes") {
            throw fieldError(
              `settings.parts.${index}.browser_source_id`,
              `The settings.parts.${index}.browser_source_id field must be the id of one of your browser sources other than a scene (no source ${part.browser_source_id}).`,
            );
          }
        });
      }
      const saved = repos.browserSources.saveSettings(userId, record.id, settings);
      if (!saved) throw new ApiError("OVATION_ERR_BROWSER_SOURCES_NOT_FOUND");
      await repos.store.persisted();
      hub.browserSourceUpdated(userId, { browser_source_id: saved.id, alert_set_id: null, reason: "browser-source-updated" });
      return present(request, saved);
    },
  );
}
