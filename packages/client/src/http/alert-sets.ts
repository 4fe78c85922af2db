import type * as api from "@ovation/core/api";
import type { In, Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link alertSetsApi}. */
export const ALERT_SETS_ROUTES = {
  list: { method: "GET", path: "/v1/alert-configs" },
  create: { method: "POST", path: "/v1/alert-configs" },
  get: { method: "GET", path: "/v1/alert-configs/{id}" },
  replace: { method: "PUT", path: "/v1/alert-configs/{id}" },
  delete: { method: "DELETE", path: "/v1/alert-configs/{id}" },
  activate: { method: "POST", path: "/v1/alert-configs/{id}/activate" },
  migrate: { method: "POST", path: "/v1/alert-configs/{id}/migrate" },
} as const;

/** An alert set as the API returns it. */
export type AlertSet = Out<typeof api.alertSetViewSchema>;
/** The body of create/replace: an AE4 document (`default`, `defaults`, `variations`) with `name`, or an AE3 one with `version: 3`. */
export type AlertSetInput = In<typeof api.alertSetBodySchema> & Partial<Omit<In<typeof api.alertSetEngineSchema>, "id" | "user_id" | "active" | "version">>;

/** Alert sets (scope `alerts:manage`). */
export function alertSetsApi(http: HttpClient) {
  return {
    /** `GET /v1/alert-configs`. */
    list: (options?: CallOptions) => http.call<{ data: AlertSet[] }>(ALERT_SETS_ROUTES.list, options),
    /** `POST /v1/alert-configs`. */
    create: (body: AlertSetInput, options?: CallOptions) => http.call<AlertSet>(ALERT_SETS_ROUTES.create, { ...options, body }),
    /** `GET /v1/alert-configs/{id}`. */
    get: (id: number, options?: CallOptions) => http.call<AlertSet>(ALERT_SETS_ROUTES.get, { ...options, params: { id } }),
    /** `PUT /v1/alert-configs/{id}`: replace the configuration (same engine version). */
    replace: (id: number, body: AlertSetInput, options?: CallOptions) => http.call<AlertSet>(ALERT_SETS_ROUTES.replace, { ...options, params: { id }, body }),
    /** `DELETE /v1/alert-configs/{id}`. */
    delete: (id: number, options?: CallOptions) => http.call<void>(ALERT_SETS_ROUTES.delete, { ...options, params: { id } }),
    /** `POST /v1/alert-configs/{id}/activate`: make it the active set. */
    activate: (id: number, options?: CallOptions) => http.call<AlertSet>(ALERT_SETS_ROUTES.activate, { ...options, params: { id } }),
    /** `POST /v1/alert-configs/{id}/migrate`: move an AE3 set to AE4 (one-way). */
    migrate: (id: number, options?: CallOptions) =>
      http.call<AlertSet>(ALERT_SETS_ROUTES.migrate, { ...options, params: { id }, body: { engine: "ae4" } satisfies In<typeof api.alertSetMigrateBodySchema> }),
  };
}

/** The API of {@link alertSetsApi}. */
export type AlertSetsApi = ReturnType<typeof alertSetsApi>;
