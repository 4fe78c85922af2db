import type { ShoutoutRecord, ShoutoutSettings } from "@ovation/core";
import { botUser, callOnly } from "./schema-types.js";
import type { BotCallOptions } from "./schema-types.js";
import type { HttpClient } from "./transport.js";

/** Routes of {@link shoutoutsApi}. */
export const SHOUTOUTS_ROUTES = {
  list: { method: "GET", path: "/v1/bots/{user}/shoutouts" },
  configure: { method: "PUT", path: "/v1/bots/{user}/shoutouts/settings" },
  give: { method: "POST", path: "/v1/bots/{user}/shoutouts" },
} as const;

/** A shoutout as the API returns it. */
export type Shoutout = ShoutoutRecord;

/** Shoutouts (scope `chatbot:manage:shoutouts`; docs/shoutouts.md). */
export function shoutoutsApi(http: HttpClient) {
  return {
    /** `GET /v1/bots/{user}/shoutouts`: the settings and the latest shoutouts. */
    list: (options?: BotCallOptions) => http.call<{ settings: ShoutoutSettings; recent: Shoutout[] }>(SHOUTOUTS_ROUTES.list, { ...callOnly(options), params: botUser(options) }),
    /** `PUT /v1/bots/{user}/shoutouts/settings`. */
    configure: (settings: Partial<ShoutoutSettings>, options?: BotCallOptions) =>
      http.call<ShoutoutSettings>(SHOUTOUTS_ROUTES.configure, { ...callOnly(options), params: botUser(options), body: settings }),
    /** `POST /v1/bots/{user}/shoutouts`: a shoutout on one platform (429 while a cooldown runs, 404 for an unknown streamer). */
    give: (body: { platform: string; username: string }, options?: BotCallOptions) => http.call<Shoutout>(SHOUTOUTS_ROUTES.give, { ...callOnly(options), params: botUser(options), body }),
  };
}

/** The API of {@link shoutoutsApi}. */
export type ShoutoutsApi = ReturnType<typeof shoutoutsApi>;
