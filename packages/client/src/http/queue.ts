import type { QueuePick, QueueSettings, QueueView } from "@ovation/core";
import { botUser, callOnly } from "./schema-types.js";
import type { BotCallOptions } from "./schema-types.js";
import type { HttpClient } from "./transport.js";

/** Routes of {@link queueApi}. */
export const QUEUE_ROUTES = {
  get: { method: "GET", path: "/v1/bots/{user}/queue" },
  configure: { method: "PUT", path: "/v1/bots/{user}/queue/settings" },
  open: { method: "POST", path: "/v1/bots/{user}/queue/open" },
  close: { method: "POST", path: "/v1/bots/{user}/queue/close" },
  pick: { method: "POST", path: "/v1/bots/{user}/queue/pick" },
  remove: { method: "DELETE", path: "/v1/bots/{user}/queue/entries/{platform}/{user_platform_id}" },
  clear: { method: "DELETE", path: "/v1/bots/{user}/queue/entries" },
} as const;

/** The viewer queue as the API returns it. */
export type ViewerQueue = QueueView;

/** The viewer queue (scope `chatbot:manage:queue`; docs/queue.md). */
export function queueApi(http: HttpClient) {
  return {
    /** `GET /v1/bots/{user}/queue`: open or closed, settings, the waiting viewers in order, the latest picks. */
    get: (options?: BotCallOptions) => http.call<ViewerQueue>(QUEUE_ROUTES.get, { ...callOnly(options), params: botUser(options) }),
    /** `PUT /v1/bots/{user}/queue/settings`. */
    configure: (settings: Partial<QueueSettings>, options?: BotCallOptions) => http.call<ViewerQueue>(QUEUE_ROUTES.configure, { ...callOnly(options), params: botUser(options), body: settings }),
    /** `POST /v1/bots/{user}/queue/open`: viewers may `!join`. */
    open: (options?: BotCallOptions) => http.call<ViewerQueue>(QUEUE_ROUTES.open, { ...callOnly(options), params: botUser(options) }),
    /** `POST /v1/bots/{user}/queue/close`. */
    close: (options?: BotCallOptions) => http.call<ViewerQueue>(QUEUE_ROUTES.close, { ...callOnly(options), params: botUser(options) }),
    /** `POST /v1/bots/{user}/queue/pick`: the next `count` viewers, or at random (409 when nobody waits). */
    pick: (body: { mode?: "next" | "random"; count?: number } = {}, options?: BotCallOptions) =>
      http.call<{ picked: QueuePick[]; queue: ViewerQueue }>(QUEUE_ROUTES.pick, { ...callOnly(options), params: botUser(options), body }),
    /** `DELETE /v1/bots/{user}/queue/entries/{platform}/{user_platform_id}`: take one viewer out (404 when not waiting). */
    remove: (viewer: { platform: string; user_platform_id: string }, options?: BotCallOptions) =>
      http.call<null>(QUEUE_ROUTES.remove, { ...callOnly(options), params: { ...botUser(options), platform: viewer.platform, user_platform_id: viewer.user_platform_id } }),
    /** `DELETE /v1/bots/{user}/queue/entries`: empty the queue. */
    clear: (options?: BotCallOptions) => http.call<null>(QUEUE_ROUTES.clear, { ...callOnly(options), params: botUser(options) }),
  };
}

/** The API of {@link queueApi}. */
export type QueueApi = ReturnType<typeof queueApi>;
