import type * as api from "@ovation/core/api";
import { botUser, callOnly } from "./schema-types.js";
import type { BotCallOptions, In, Out } from "./schema-types.js";
import type { HttpClient } from "./transport.js";

/** Routes of {@link timersApi}. */
export const TIMERS_ROUTES = {
  list: { method: "GET", path: "/v1/bots/{user}/timers" },
  create: { method: "POST", path: "/v1/bots/{user}/timers" },
  get: { method: "GET", path: "/v1/bots/{user}/timers/{id}" },
  replace: { method: "PUT", path: "/v1/bots/{user}/timers/{id}" },
  delete: { method: "DELETE", path: "/v1/bots/{user}/timers/{id}" },
} as const;

/** A timer as the API returns it. */
export type TimerView = Out<typeof api.timerViewSchema>;
/** The body of create/replace. */
export type TimerInput = In<typeof api.timerSchema>;

/** Bot timers (scope `chatbot:manage:timers`). */
export function timersApi(http: HttpClient) {
  return {
    /** `GET /v1/bots/{user}/timers`. */
    list: (options?: BotCallOptions) => http.call<{ data: TimerView[] }>(TIMERS_ROUTES.list, { ...callOnly(options), params: botUser(options) }),
    /** `POST /v1/bots/{user}/timers`. */
    create: (body: TimerInput, options?: BotCallOptions) => http.call<TimerView>(TIMERS_ROUTES.create, { ...callOnly(options), params: botUser(options), body }),
    /** `GET /v1/bots/{user}/timers/{id}`. */
    get: (id: number, options?: BotCallOptions) => http.call<TimerView>(TIMERS_ROUTES.get, { ...callOnly(options), params: { ...botUser(options), id } }),
    /** `PUT /v1/bots/{user}/timers/{id}`. */
    replace: (id: number, body: TimerInput, options?: BotCallOptions) => http.call<TimerView>(TIMERS_ROUTES.replace, { ...callOnly(options), params: { ...botUser(options), id }, body }),
    /** `DELETE /v1/bots/{user}/timers/{id}`. */
    delete: (id: number, options?: BotCallOptions) => http.call<void>(TIMERS_ROUTES.delete, { ...callOnly(options), params: { ...botUser(options), id } }),
  };
}

/** The API of {@link timersApi}. */
export type TimersApi = ReturnType<typeof timersApi>;
