import type * as api from "@ovation/core/api";
import { botUser, callOnly } from "./schema-types.js";
import type { BotCallOptions, In, Out } from "./schema-types.js";
import type { HttpClient } from "./transport.js";

/** Routes of {@link giveawaysApi}. */
export const GIVEAWAYS_ROUTES = {
  current: { method: "GET", path: "/v1/bots/{user}/giveaways" },
  open: { method: "POST", path: "/v1/bots/{user}/giveaways" },
  close: { method: "POST", path: "/v1/bots/{user}/giveaways/close" },
  draw: { method: "POST", path: "/v1/bots/{user}/giveaways/draw" },
  reroll: { method: "POST", path: "/v1/bots/{user}/giveaways/reroll" },
} as const;

/** A giveaway as the API returns it. */
export type Giveaway = Out<typeof api.giveawayViewSchema>;

/** Giveaways (scope `chatbot:manage:giveaways`). */
export function giveawaysApi(http: HttpClient) {
  return {
    /** `GET /v1/bots/{user}/giveaways`: the current (or last) giveaway, `data: null` when none. */
    current: (options?: BotCallOptions) => http.call<Out<typeof api.giveawayCurrentSchema>>(GIVEAWAYS_ROUTES.current, { ...callOnly(options), params: botUser(options) }),
    /** `POST /v1/bots/{user}/giveaways`: open one (409 while another is open). */
    open: (settings: In<typeof api.giveawaySettingsSchema>, options?: BotCallOptions) => http.call<Giveaway>(GIVEAWAYS_ROUTES.open, { ...callOnly(options), params: botUser(options), body: settings }),
    /** `POST /v1/bots/{user}/giveaways/close`. */
    close: (options?: BotCallOptions) => http.call<Giveaway>(GIVEAWAYS_ROUTES.close, { ...callOnly(options), params: botUser(options) }),
    /** `POST /v1/bots/{user}/giveaways/draw`: draw `count` winners (default 1). */
    draw: (body: { count?: number } = {}, options?: BotCallOptions) =>
      http.call<Out<typeof api.giveawayDrawSchema>>(GIVEAWAYS_ROUTES.draw, { ...callOnly(options), params: botUser(options), body: body satisfies In<typeof api.giveawayDrawBodySchema> }),
    /** `POST /v1/bots/{user}/giveaways/reroll`: replace a winner with a new draw. */
    reroll: (body: In<typeof api.giveawayRerollBodySchema>, options?: BotCallOptions) =>
      http.call<Out<typeof api.giveawayRerollSchema>>(GIVEAWAYS_ROUTES.reroll, { ...callOnly(options), params: botUser(options), body }),
  };
}

/** The API of {@link giveawaysApi}. */
export type GiveawaysApi = ReturnType<typeof giveawaysApi>;
