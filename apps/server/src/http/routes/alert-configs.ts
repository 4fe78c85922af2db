import { z } from "zod";
import { alertSetBodySchema, alertSetMigrateBodySchema, alertSetViewSchema } from "@ovation/core/api";
import { AlertMigrationError, ValidationError, ae3DocumentSchema, alertSetSchema, migrateAe3ToAe4, parseOrThrow, definedKeys } from "@ovation/core";
import type { BrowserSourceUpdated } from "@ovation/core";
import { channelRoute, channelUserOf } from "../channel-routes.js";
import { ApiError } from "../../errors.js";
import { engineConfig } from "../../store/alert-sets.js";
import type { AlertSetRecord } from "../../store/records.js";
import { authErrorResponses, errorBodySchema, idParam } from "../types.js";
import type { ZodApp } from "../types.js";
import { presentAlertSet } from "./alert-set-view.js";

/** Validates a create/replace body with core's engine schemas; returns what the store keeps. */
function engineDocument(body: Record<string, unknown>, userId: number, version: 3 | 4): Record<string, unknown> {
  const probe = { ...body, id: 1, user_id: userId, active: false, version };
  const parsed = version === 4 ? parseOrThrow(alertSetSchema, probe, "OVATION_ERR_HTTP_VALIDATION") : parseOrThrow(ae3DocumentSchema, probe, "OVATION_ERR_HTTP_VALIDATION");
  return engineConfig(parsed);
}

/**
 * Alert sets (`alerts:manage`): list, create (AE4, or AE3 to migrate later), read, replace, delete,
 * activate, and the one-way AE3 -> AE4 migration. Every change tells the user's browser sources
 * (`browser-source-updated`) to reload. Each route also answers at `/v1/bots/{user}/alert-configs...`
 * for a channel the caller manages (channel-routes.ts).
 */
export async function alertConfigRoutes(app: ZodApp): Promise<void> {
  const { repos, hub } = app.ovation;
  const auth = app.ovation.authenticate("alerts:manage");
  const security = [{ bearerAuth: [] }];
  const tags = ["alert sets"];
  const params = z.object({ id: idParam });
  const notFound = () => new ApiError("OVATION_ERR_ALERT_SETS_NOT_FOUND");
  const updated = (userId: number, set: AlertSetRecord | number, reason: BrowserSourceUpdated["reason"]) =>
    hub.browserSourceUpdated(userId, { browser_source_id: null, alert_set_id: typeof set === "number" ? set : set.id, reason });

  channelRoute(
    app,
    { method: "GET", path: "/v1/alert-configs" },
    (form) => ({ preHandler: auth, schema: { params: form.params, tags, security, summary: "List your alert sets", response: { 200: z.object({ data: z.array(alertSetViewSchema) }), ...authErrorResponses } } }),
    async (request) => ({ data: repos.alertSets.listForUser(channelUserOf(request)).map(presentAlertSet) }),
  );

  channelRoute(
    app,
    { method: "POST", path: "/v1/alert-configs" },
    (form) => ({
      preHandler: auth,
      schema: { params: form.params, tags, security, summary: "Create an alert set", body: alertSetBodySchema, response: { 201: alertSetViewSchema, ...authErrorResponses } },
    }),
    async (request, reply) => {
      const userId = channelUserOf(request);
      const { name, version, active, ...rest } = request.body;
      const config = engineDocument(rest, userId, version);
      const record = repos.alertSets.create({ user_id: userId, name: name ?? `Alert set (AE${version})`, version, config, ...definedKeys({ active }) });
      await repos.store.persisted();
      if (record.active) updated(userId, record, "alert-set-activated");
      return reply.code(201).send(presentAlertSet(record));
    },
  );

  channelRoute(
    app,
    { method: "GET", path: "/v1/alert-configs/:id", params },
    (form) => ({ preHandler: auth, schema: { tags, security, summary: "Get an alert set", params: form.params, response: { 200: alertSetViewSchema, 404: errorBodySchema, ...authErrorResponses } } }),
    async (request) => {
      const record = repos.alertSets.getForUser(channelUserOf(request), request.params.id);
      if (!record) throw notFound();
      return presentAlertSet(record);
    },
  );

  channelRoute(
    app,
    { method: "PUT", path: "/v1/alert-configs/:id", params },
    (form) => ({
      preHandler: auth,
      schema: {
        tags,
        security,
        summary: "Replace an alert set's configuration (same engine version)",
        params: form.params,
        body: alertSetBodySchema,
        response: { 200: alertSetViewSchema, 404: errorBodySchema, ...authErrorResponses },
      },
    }),
    async (request) => {
      const userId = channelUserOf(request);
      const existing = repos.alertSets.getForUser(userId, request.params.id);
      if (!existing) throw notFound();
      const { name, version, active: _ignored, ...rest } = request.body;
      if (version !== existing.version) {
        const message = `The version field must stay ${existing.version}; use POST /v1/alert-configs/${existing.id}/migrate to move an AE3 set to AE4.`;
        throw new ApiError("OVATION_ERR_HTTP_VALIDATION", { message, errors: { version: [message] } });
      }
      const config = engineDocument(rest, userId, version);
      const record = repos.alertSets.update(userId, existing.id, { config, ...definedKeys({ name }) });
      if (!record) throw notFound();
      await repos.store.persisted();
      updated(userId, record, "alert-set-updated");
      return presentAlertSet(record);
    },
  );

  channelRoute(
    app,
    { method: "DELETE", path: "/v1/alert-configs/:id", params },
    (form) => ({ preHandler: auth, schema: { tags, security, summary: "Delete an alert set", params: form.params, response: { 204: z.null(), 404: errorBodySchema, ...authErrorResponses } } }),
    async (request, reply) => {
      const userId = channelUserOf(request);
      if (!repos.alertSets.remove(userId, request.params.id)) throw notFound();
      await repos.store.persisted();
      updated(userId, request.params.id, "alert-set-deleted");
      return reply.code(204).send(null);
    },
  );

  channelRoute(
    app,
    { method: "POST", path: "/v1/alert-configs/:id/activate", params },
    (form) => ({
      preHandler: auth,
      schema: { tags, security, summary: "Make this your active alert set", params: form.params, response: { 200: alertSetViewSchema, 404: errorBodySchema, ...authErrorResponses } },
    }),
    async (request) => {
      const userId = channelUserOf(request);
      const record = repos.alertSets.activate(userId, request.params.id);
      if (!record) throw notFound();
      await repos.store.persisted();
      updated(userId, record, "alert-set-activated");
      return presentAlertSet(record);
    },
  );

  channelRoute(
    app,
    { method: "POST", path: "/v1/alert-configs/:id/migrate", params },
    (form) => ({
      preHandler: auth,
      schema: {
        tags,
        security,
        summary: "Migrate an AE3 alert set to AE4 (one-way)",
        params: form.params,
        body: alertSetMigrateBodySchema,
        response: { 200: alertSetViewSchema, 404: errorBodySchema, ...authErrorResponses },
      },
    }),
    async (request) => {
      const userId = channelUserOf(request);
      const existing = repos.alertSets.getForUser(userId, request.params.id);
      if (!existing) throw notFound();
      let migrated;
      try {
        migrated = migrateAe3ToAe4({ ...existing.config, id: existing.id, user_id: existing.user_id, active: existing.active, version: existing.version });
      } catch (error) {
        if (error instanceof AlertMigrationError) {
          throw new ApiError("OVATION_ERR_ALERT_SETS_ALREADY_MIGRATED", { message: error.message, errors: { engine: [error.message] } });
        }
        if (error instanceof ValidationError) throw new ApiError("OVATION_ERR_HTTP_VALIDATION", { message: error.message, errors: error.errors });
        throw error;
      }
      const record = repos.alertSets.update(userId, existing.id, { version: 4, config: engineConfig(migrated) });
      if (!record) throw notFound();
      await repos.store.persisted();
      updated(userId, record, "alert-set-updated");
      return presentAlertSet(record);
    },
  );
}
