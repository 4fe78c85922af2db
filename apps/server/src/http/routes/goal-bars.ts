import { z } from "zod";
import { goalBarProgressBodySchema, goalBarViewSchema } from "@ovation/core/api";
import { goalBarSchema } from "@ovation/core";
import type { GoalBar } from "@ovation/core";
import { channelUserOf, channelRoute } from "../channel-routes.js";
import { ApiError } from "../../errors.js";
import type { GoalBarRecord } from "../../store/bot-modules.js";
import { authErrorResponses, errorBodySchema, idParam } from "../types.js";
import type { ZodApp } from "../types.js";
import { presentGoalBar } from "./goal-bar-view.js";

/** Most goal bars per user. */
const MAX_GOAL_BARS = 100;

/**
 * Goal bars of the caller (scope `widgets:manage`): configurations with their progress. Progress
 * moves with matching notifications (follows, subscriptions, bits, tips) or with a counter, and
 * can be set by hand; every change reaches the `goalbars` browser sources at once. Each route also
 * answers at `/v1/bots/{user}/goal-bars...` for a channel the caller manages (channel-routes.ts).
 */
export async function goalBarRoutes(app: ZodApp): Promise<void> {
  const { repos, hub, botModules } = app.ovation;
  const auth = app.ovation.authenticate("widgets:manage");
  const security = [{ bearerAuth: [] }];
  const tags = ["goal bars"];
  const params = z.object({ id: idParam });
  const notFound = () => new ApiError("OVATION_ERR_GOAL_BARS_NOT_FOUND");
  const changed = async (record: GoalBarRecord) => {
    await repos.store.persisted();
    hub.goalBarUpdated(record.user_id, presentGoalBar(record));
    return presentGoalBar(record);
  };
  const startingValue = async (userId: number, goal: GoalBar) => (goal.kind === "counter" && goal.counter !== null ? botModules.counterValue(userId, goal.counter) : goal.start_value);

  channelRoute(
    app,
    { method: "GET", path: "/v1/goal-bars" },
    (form) => ({ preHandler: auth, schema: { params: form.params, tags, security, summary: "List the goal bars", response: { 200: z.object({ data: z.array(goalBarViewSchema) }), ...authErrorResponses } } }),
    async (request) => ({ data: repos.goalBars.listForUser(channelUserOf(request)).map((r) => presentGoalBar(r)) }),
  );

  channelRoute(
    app,
    { method: "POST", path: "/v1/goal-bars" },
    (form) => ({
      preHandler: auth,
      schema: {
        params: form.params,
        tags,
        security,
        summary: "Create a goal bar",
        description:
          "kind: followers | subscribers | bits | tips | counter (with `counter` naming the counter). Progress starts at start_value (a counter goal shows its counter). " +
          "Show it with a `goalbars` browser source whose identifier is the goal bar id.",
        body: goalBarSchema,
        response: { 201: goalBarViewSchema, ...authErrorResponses },
      },
    }),
    async (request, reply) => {
      const userId = channelUserOf(request);
      if (repos.goalBars.listForUser(userId).length >= MAX_GOAL_BARS) {
        throw new ApiError("OVATION_ERR_HTTP_VALIDATION", { message: `A user has at most ${MAX_GOAL_BARS} goal bars.`, errors: { title: [`A user has at most ${MAX_GOAL_BARS} goal bars.`] } });
      }
      const record = repos.goalBars.create(userId, { ...request.body, current: await startingValue(userId, request.body) });
      return reply.code(201).send(await changed(record));
    },
  );

  channelRoute(
    app,
    { method: "GET", path: "/v1/goal-bars/:id", params },
    (form) => ({ preHandler: auth, schema: { tags, security, summary: "Get a goal bar", params: form.params, response: { 200: goalBarViewSchema, 404: errorBodySchema, ...authErrorResponses } } }),
    async (request) => {
      const record = repos.goalBars.getForUser(channelUserOf(request), request.params.id);
      if (!record) throw notFound();
      return presentGoalBar(record);
    },
  );

  channelRoute(
    app,
    { method: "PUT", path: "/v1/goal-bars/:id", params },
    (form) => ({
      preHandler: auth,
      schema: {
        tags,
        security,
        summary: "Replace a goal bar's configuration",
        description: "Progress is kept; a new start_value moves it by the difference. Changing kind or counter starts progress again.",
        params: form.params,
        body: goalBarSchema,
        response: { 200: goalBarViewSchema, 404: errorBodySchema, ...authErrorResponses },
      },
    }),
    async (request) => {
      const userId = channelUserOf(request);
      const old = repos.goalBars.getForUser(userId, request.params.id);
      if (!old) throw notFound();
      const goal = request.body;
      const restart = goal.kind !== old.kind || goal.counter !== old.counter;
      const current = restart ? await startingValue(userId, goal) : Math.max(0, old.current + goal.start_value - old.start_value);
      const record = repos.goalBars.update(userId, old.id, (r) => Object.assign(r, structuredClone(goal), { current }));
      if (!record) throw notFound();
      return changed(record);
    },
  );

  channelRoute(
    app,
    { method: "POST", path: "/v1/goal-bars/:id/progress", params },
    (form) => ({
      preHandler: auth,
      schema: {
        tags,
        security,
        summary: "Set or move a goal bar's progress by hand",
        params: form.params,
        body: goalBarProgressBodySchema,
        response: { 200: goalBarViewSchema, 404: errorBodySchema, ...authErrorResponses },
      },
    }),
    async (request) => {
      const { operation, value } = request.body;
      const record = repos.goalBars.update(channelUserOf(request), request.params.id, (r) => {
        const next = operation === "set" ? value : operation === "increment" ? r.current + value : r.current - value;
        r.current = Math.min(1e12, Math.max(0, next));
      });
      if (!record) throw notFound();
      return changed(record);
    },
  );

  channelRoute(
    app,
    { method: "DELETE", path: "/v1/goal-bars/:id", params },
    (form) => ({ preHandler: auth, schema: { tags, security, summary: "Delete a goal bar", params: form.params, response: { 204: z.null(), 404: errorBodySchema, ...authErrorResponses } } }),
    async (request, reply) => {
      if (!repos.goalBars.remove(channelUserOf(request), request.params.id)) throw notFound();
      await repos.store.persisted();
      return reply.code(204).send(null);
    },
  );
}
