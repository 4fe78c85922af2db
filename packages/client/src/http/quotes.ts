import type * as commands from "@ovation/core/commands";
import { botUser, callOnly } from "./schema-types.js";
import type { BotCallOptions, In, Out } from "./schema-types.js";
import type { HttpClient } from "./transport.js";

/** Routes of {@link quotesApi}. */
export const QUOTES_ROUTES = {
  list: { method: "GET", path: "/v1/bots/{user}/quotes" },
  create: { method: "POST", path: "/v1/bots/{user}/quotes" },
  get: { method: "GET", path: "/v1/bots/{user}/quotes/{id}" },
  replace: { method: "PUT", path: "/v1/bots/{user}/quotes/{id}" },
  delete: { method: "DELETE", path: "/v1/bots/{user}/quotes/{id}" },
} as const;

/** A quote as the API returns it. */
export type QuoteView = Out<typeof commands.quoteSchema>;
/** The body of create/replace. */
export type QuoteInput = In<typeof commands.quoteInputSchema>;

/** Quotes (scope `chatbot:manage:quotes`; docs/quotes.md). */
export function quotesApi(http: HttpClient) {
  const one = (id: number, options?: BotCallOptions) => ({ ...callOnly(options), params: { ...botUser(options), id } });
  return {
    /** `GET /v1/bots/{user}/quotes`. */
    list: (options?: BotCallOptions) => http.call<{ data: QuoteView[] }>(QUOTES_ROUTES.list, { ...callOnly(options), params: botUser(options) }),
    /** `POST /v1/bots/{user}/quotes`. */
    create: (body: QuoteInput, options?: BotCallOptions) => http.call<QuoteView>(QUOTES_ROUTES.create, { ...callOnly(options), params: botUser(options), body }),
    /** `GET /v1/bots/{user}/quotes/{id}`. */
    get: (id: number, options?: BotCallOptions) => http.call<QuoteView>(QUOTES_ROUTES.get, one(id, options)),
    /** `PUT /v1/bots/{user}/quotes/{id}`. */
    replace: (id: number, body: QuoteInput, options?: BotCallOptions) => http.call<QuoteView>(QUOTES_ROUTES.replace, { ...one(id, options), body }),
    /** `DELETE /v1/bots/{user}/quotes/{id}`. */
    delete: (id: number, options?: BotCallOptions) => http.call<void>(QUOTES_ROUTES.delete, one(id, options)),
  };
}

/** The API of {@link quotesApi}. */
export type QuotesApi = ReturnType<typeof quotesApi>;
