import type * as api from "@ovation/core/api";
import { botUser, callOnly } from "./schema-types.js";
import type { BotCallOptions, In, Out } from "./schema-types.js";
import type { HttpClient } from "./transport.js";

/** Routes of {@link countersApi}. */
export const COUNTERS_ROUTES = {
  list: { method: "GET", path: "/v1/bots/{bot}/counters" },
  create: { method: "POST", path: "/v1/bots/{bot}/counters" },
  update: { method: "PATCH", path: "/v1/bots/{bot}/counters" },
  delete: { method: "DELETE", path: "/v1/bots/{bot}/counters" },
  values: { method: "POST", path: "/v1/bots/{bot}/counters/values" },
} as const;

/** A counter. */
export type Counter = Out<typeof api.counterSchema>;

/** Counters (read `chatbot:read`, change `chatbot:manage`); every call takes and answers a list. */
export function countersApi(http: HttpClient) {
  const params = (options: BotCallOptions | undefined) => ({ bot: botUser(options).user });
  return {
    /** `GET /v1/bots/{bot}/counters`. */
    list: (options?: BotCallOptions) => http.call<Counter[]>(COUNTERS_ROUTES.list, { ...callOnly(options), params: params(options) }),
    /** `POST /v1/bots/{bot}/counters`: create counters. */
    create: (items: In<typeof api.counterCreateBodySchema>, options?: BotCallOptions) => http.call<Counter[]>(COUNTERS_ROUTES.create, { ...callOnly(options), params: params(options), body: items }),
    /** `PATCH /v1/bots/{bot}/counters`: update counters by name. */
    update: (items: In<typeof api.counterUpdateBodySchema>, options?: BotCallOptions) => http.call<Counter[]>(COUNTERS_ROUTES.update, { ...callOnly(options), params: params(options), body: items }),
    /** `POST /v1/bots/{bot}/counters/values`: increment, decrement or set values. */
    changeValues: (items: In<typeof api.counterValuesBodySchema>, options?: BotCallOptions) =>
      http.call<Counter[]>(COUNTERS_ROUTES.values, { ...callOnly(options), params: params(options), body: items }),
    /** `DELETE /v1/bots/{bot}/counters`: delete counters by name (answers them as they were). */
    delete: (items: In<typeof api.counterDeleteBodySchema>, options?: BotCallOptions) => http.call<Counter[]>(COUNTERS_ROUTES.delete, { ...callOnly(options), params: params(options), body: items }),
  };
}

/** The API of {@link countersApi}. */
export type CountersApi = ReturnType<typeof countersApi>;
