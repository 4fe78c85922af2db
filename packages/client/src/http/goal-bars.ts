import type * as api from "@ovation/core/api";
import type { In, Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link goalBarsApi}. */
export const GOAL_BARS_ROUTES = {
  list: { method: "GET", path: "/v1/goal-bars" },
  create: { method: "POST", path: "/v1/goal-bars" },
  get: { method: "GET", path: "/v1/goal-bars/{id}" },
  replace: { method: "PUT", path: "/v1/goal-bars/{id}" },
  delete: { method: "DELETE", path: "/v1/goal-bars/{id}" },
  progress: { method: "POST", path: "/v1/goal-bars/{id}/progress" },
} as const;

/** A goal bar with its progress. */
export type GoalBarConfig = Out<typeof api.goalBarViewSchema>;
/** The body of create/replace. */
export type GoalBarInput = In<typeof api.goalBarSchema>;

/** Goal bars (scope `widgets:manage`). */
export function goalBarsApi(http: HttpClient) {
  return {
    /** `GET /v1/goal-bars`. */
    list: (options?: CallOptions) => http.call<{ data: GoalBarConfig[] }>(GOAL_BARS_ROUTES.list, options),
    /** `POST /v1/goal-bars`. */
    create: (body: GoalBarInput, options?: CallOptions) => http.call<GoalBarConfig>(GOAL_BARS_ROUTES.create, { ...options, body }),
    /** `GET /v1/goal-bars/{id}`. */
    get: (id: number, options?: CallOptions) => http.call<GoalBarConfig>(GOAL_BARS_ROUTES.get, { ...options, params: { id } }),
    /** `PUT /v1/goal-bars/{id}`: replace the configuration (progress kept). */
    replace: (id: number, body: GoalBarInput, options?: CallOptions) => http.call<GoalBarConfig>(GOAL_BARS_ROUTES.replace, { ...options, params: { id }, body }),
    /** `DELETE /v1/goal-bars/{id}`. */
    delete: (id: number, options?: CallOptions) => http.call<void>(GOAL_BARS_ROUTES.delete, { ...options, params: { id } }),
    /** `POST /v1/goal-bars/{id}/progress`: set or move the progress by hand. */
    progress: (id: number, body: In<typeof api.goalBarProgressBodySchema>, options?: CallOptions) =>
      http.call<GoalBarConfig>(GOAL_BARS_ROUTES.progress, { ...options, params: { id }, body }),
  };
}

/** The API of {@link goalBarsApi}. */
export type GoalBarsApi = ReturnType<typeof goalBarsApi>;
