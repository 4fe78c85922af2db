import { QUEUE_ACTIONS, alertLogQuerySchema, alertLogSchema, notifySubSchema, queueActionBodySchema, queueStateSchema, replayBodySchema } from "@ovation/core/api";
import { ApiError } from "../../errors.js";
import { presentLogEntry } from "../../realtime/gateway.js";
import { channelUserOf, channelRoute } from "../channel-routes.js";
import { authErrorResponses, errorBodySchema } from "../types.js";
import type { ZodApp } from "../types.js";

/**
 * Live queue control for the browser sources of the caller (scope `alerts:manage`), all of them or
 * one (`browser_source_id` in the body): skip the current alert, pause/resume (remembered: a source
 * that reconnects stays paused), clear (drops what is queued and what would be replayed), replay a
 * logged alert, and read the log. Each change is also sent as `alert-log` to the caller's sockets.
 * Each route also answers at `/v1/bots/{user}/alerts/...` for a channel the caller manages.
 */
export async function alertQueueRoutes(app: ZodApp): Promise<void> {
  const { repos, hub } = app.ovation;
  const auth = app.ovation.authenticate("alerts:manage");

  /** The browser source id of the body, checked to be the caller's (404 otherwise), or null. */
  const targetOf = (userId: number, id: number | undefined): number | null => {
    if (id === undefined) return null;
    if (!repos.browserSources.getForUser(userId, id)) {
      const message = `You have no browser source ${id}.`;
      throw new ApiError("OVATION_ERR_BROWSER_SOURCES_NOT_FOUND", { message, errors: { browser_source_id: [message] } });
    }
    return id;
  };

  for (const action of QUEUE_ACTIONS) {
    channelRoute(
      app,
      { method: "POST", path: `/v1/alerts/queue/${action}` },
      (form) => ({
        preHandler: auth,
        schema: {
          params: form.params,
          tags: ["alert queue"],
          summary: {
            skip: "Skip the alert on screen",
            pause: "Pause the queue (the current alert finishes)",
            resume: "Resume the queue",
            clear: "Drop every queued alert (and its replay)",
          }[action],
          security: [{ bearerAuth: [] }],
          body: queueActionBodySchema,
          response: { 200: queueStateSchema, 404: errorBodySchema, ...authErrorResponses },
        },
      }),
      async (request) => {
        const userId = channelUserOf(request);
        const target = targetOf(userId, request.body?.browser_source_id);
        const cleared = hub.control(userId, action, target);
        await repos.store.persisted();
        return { action, browser_source_id: target, ...hub.queueState(userId), ...(action === "clear" ? { cleared } : {}) };
      },
    );
  }

  channelRoute(
    app,
    { method: "POST", path: "/v1/alerts/queue/replay" },
    (form) => ({
      preHandler: auth,
      schema: {
        params: form.params,
        tags: ["alert queue"],
        summary: "Show a past alert again (sent with ovation.replay = true)",
        security: [{ bearerAuth: [] }],
        body: replayBodySchema,
        response: { 200: notifySubSchema, 404: errorBodySchema, ...authErrorResponses },
      },
    }),
    async (request) => {
      const userId = channelUserOf(request);
      return hub.replay(userId, request.body.notification_id, targetOf(userId, request.body.browser_source_id));
    },
  );

  channelRoute(
    app,
    { method: "GET", path: "/v1/alerts/log" },
    (form) => ({
      preHandler: auth,
      schema: {
        params: form.params,
        tags: ["alert queue"],
        summary: "Your recent alerts, newest first (ids for replay), and the queue state",
        security: [{ bearerAuth: [] }],
        querystring: alertLogQuerySchema,
        response: { 200: alertLogSchema, ...authErrorResponses },
      },
    }),
    async (request) => {
      const userId = channelUserOf(request);
      return { data: repos.alertLog.recent(userId, request.query.limit).map((entry) => presentLogEntry(entry)), ...hub.queueState(userId) };
    },
  );
}
