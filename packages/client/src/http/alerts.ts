import type * as api from "@ovation/core/api";
import type { In, Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link alertsApi}. */
export const ALERTS_ROUTES = {
  catalog: { method: "GET", path: "/v1/alerts/catalog" },
  trigger: { method: "POST", path: "/v1/alerts" },
  test: { method: "POST", path: "/v1/alerts/test" },
  log: { method: "GET", path: "/v1/alerts/log" },
  replay: { method: "POST", path: "/v1/alerts/queue/replay" },
  skip: { method: "POST", path: "/v1/alerts/queue/skip" },
  pause: { method: "POST", path: "/v1/alerts/queue/pause" },
  resume: { method: "POST", path: "/v1/alerts/queue/resume" },
  clear: { method: "POST", path: "/v1/alerts/queue/clear" },
} as const;

type Notification = Out<typeof api.notifySubSchema>;
type QueueState = Out<typeof api.queueStateSchema>;

/** A queue action of `POST /v1/alerts/queue/{action}`. */
export type QueueAction = (typeof api.QUEUE_ACTIONS)[number];

/** Options of a queue call: `browserSourceId` acts on that browser source alone (default: all of them). */
export interface QueueCallOptions extends CallOptions {
  browserSourceId?: number;
}

function callPart(options: QueueCallOptions | undefined): CallOptions {
  if (options === undefined) return {};
  const { browserSourceId: _id, ...rest } = options;
  return rest;
}

function target(options: QueueCallOptions | undefined): { browser_source_id?: number } {
  return options?.browserSourceId === undefined ? {} : { browser_source_id: options.browserSourceId };
}

function body(options: QueueCallOptions | undefined): { body?: In<typeof api.queueActionBodySchema> } {
  return options?.browserSourceId === undefined ? {} : { body: target(options) };
}

/** Alerts (scope `alerts:manage`; the catalog is public): trigger, test, the log and the live queue. */
export function alertsApi(http: HttpClient) {
  return {
    /** `GET /v1/alerts/catalog`: platforms and alert types with their parameters. */
    catalog: (options?: CallOptions) => http.call<Out<typeof api.alertCatalogSchema>>(ALERTS_ROUTES.catalog, options),
    /** `POST /v1/alerts`: trigger an alert; answers the NotifySub sent (201) or the earlier one for a repeated `notification_id` (200). */
    trigger: (body: In<typeof api.alertTriggerBodySchema>, options?: CallOptions) => http.call<Notification>(ALERTS_ROUTES.trigger, { ...options, body }),
    /** `POST /v1/alerts/test`: a test alert (`ovation.test: true`); `data` defaults to the catalog example. */
    test: (body: In<typeof api.alertTestBodySchema>, options?: CallOptions) => http.call<Notification>(ALERTS_ROUTES.test, { ...options, body }),
    /** `GET /v1/alerts/log`: recent alerts, newest first, and whether the queue is paused. */
    log: (query: Partial<Out<typeof api.alertLogQuerySchema>> = {}, options?: CallOptions) =>
      http.call<Out<typeof api.alertLogSchema>>(ALERTS_ROUTES.log, { ...options, query: { limit: query.limit } }),
    /** `POST /v1/alerts/queue/replay`: show a logged alert again, on every browser source or only on `browserSourceId`. */
    replay: (notificationId: string, options?: QueueCallOptions) =>
      http.call<Notification>(ALERTS_ROUTES.replay, { ...callPart(options), body: { notification_id: notificationId, ...target(options) } satisfies In<typeof api.replayBodySchema> }),
    /** `POST /v1/alerts/queue/{action}`: one queue action, on every browser source or only on `browserSourceId`. */
    queue: (action: QueueAction, options?: QueueCallOptions) => http.call<QueueState>(ALERTS_ROUTES[action], { ...callPart(options), ...body(options) }),
    /** `POST /v1/alerts/queue/skip`: skip the alert on screen. */
    skip: (options?: QueueCallOptions) => http.call<QueueState>(ALERTS_ROUTES.skip, { ...callPart(options), ...body(options) }),
    /** `POST /v1/alerts/queue/pause`: pause the queue (remembered across reconnects). */
    pause: (options?: QueueCallOptions) => http.call<QueueState>(ALERTS_ROUTES.pause, { ...callPart(options), ...body(options) }),
    /** `POST /v1/alerts/queue/resume`: resume the queue (of every source resumes the sources paused one by one too). */
    resume: (options?: QueueCallOptions) => http.call<QueueState>(ALERTS_ROUTES.resume, { ...callPart(options), ...body(options) }),
    /** `POST /v1/alerts/queue/clear`: drop every queued alert (`cleared` counts them). */
    clear: (options?: QueueCallOptions) => http.call<QueueState>(ALERTS_ROUTES.clear, { ...callPart(options), ...body(options) }),
  };
}

/** The API of {@link alertsApi}. */
export type AlertsApi = ReturnType<typeof alertsApi>;
