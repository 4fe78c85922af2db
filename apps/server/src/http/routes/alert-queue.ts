import { QUEUE_ACTIONS, alertLogQuerySchema, alertLogSchema, notifySubSchema, queueStateSchema, replayBodySchema } from "@ovation/core/api";
import { callerOf } from "../authenticate.js";
import { authErrorResponses, errorBodySchema } from "../types.js";
import type { ZodApp } from "../types.js";

/**
 * Live queue control for every browser source of the caller (scope `alerts:manage`):
 * skip the current alert, pause/resume (remembered: a source that reconnects stays paused), clear
 * (drops what is queued and what would be replayed), replay a logged alert, and read the log.
 */
export async function alertQueueRoutes(app: ZodApp): Promise<void> {
  const { repos, hub } = app.ovation;
  const auth = app.ovation.authenticate("alerts:manage");

  for (const action of QUEUE_ACTIONS) {
    app.post(
      `/v1/alerts/queue/${action}`,
      {
        preHandler: auth,
        schema: {
          tags: ["alert queue"],
          summary: {
            skip: "Skip the alert on screen",
            pause: "Pause the queue (the current alert finishes)",
            resume: "Resume the queue",
            clear: "Drop every queued alert (and its replay)",
          }[action],
          security: [{ bearerAuth: [] }],
          response: { 200: queueStateSchema, ...authErrorResponses },
        },
      },
      async (request) => {
        const { userId } = callerOf(request);
        const before = action === "clear" ? repos.alertLog.recent(userId, Number.MAX_SAFE_INTEGER).filter((e) => !e.cleared).length : undefined;
        hub.control(userId, action);
        await repos.store.persisted();
        return { action, paused: repos.queueState.isPaused(userId), ...(before === undefined ? {} : { cleared: before }) };
      },
    );
  }

  app.post(
    "/v1/alerts/queue/replay",
    {
      preHandler: auth,
      schema: {
        tags: ["alert queue"],
        summary: "Show a past alert again (sent with ovation.replay = true)",
        security: [{ bearerAuth: [] }],
        body: replayBodySchema,
        response: { 200: notifySubSchema, 404: errorBodySchema, ...authErrorResponses },
      },
    },
    async (request) => hub.replay(callerOf(request).userId, request.body.notification_id),
  );

  app.get(
    "/v1/alerts/log",
    {
      preHandler: auth,
      schema: {
        tags: ["alert queue"],
        summary: "Your recent alerts, newest first (ids for replay)",
        security: [{ bearerAuth: [] }],
        querystring: alertLogQuerySchema,
        response: { 200: alertLogSchema, ...authErrorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      return {
        data: repos.alertLog.recent(userId, request.query.limit).map((e) => ({
          notification: e.notification,
          test: e.test,
          cleared: e.cleared,
          acknowledged_by: [...e.acked_by],
        })),
        paused: repos.queueState.isPaused(userId),
      };
    },
  );
}
