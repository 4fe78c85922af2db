import { z } from "zod";
import { goalBarSchema } from "../../../goals/goal-bar.js";
import type { GoalBar } from "../../../goals/goal-bar.js";
import { BotRouteError } from "../../runtime/bot-module.js";
import type { BotModuleContext, BotModuleLog, BotModuleRoute, BotRouteRequest } from "../../runtime/bot-module.js";
import { counterValue } from "../counters/key-value-counters.js";
import { routeValidationError } from "../field-errors.js";
import { storedOrRouteError } from "../route-errors.js";
import { GOAL_BARS_ERROR_CODES, GOAL_BAR_LIMITS } from "./goal-bar-records.js";
import type { GoalBarRecords, SavedGoalBar } from "./goal-bar-records.js";
import { goalBarProgressBodySchema, goalBarViewSchema, presentGoalBar } from "./goal-bar-view.js";

/** The scope of the goal bars' API (a widget's, not the bot's). */
export const GOAL_BARS_SCOPE = "widgets:manage";

const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

function notFound(): BotRouteError {
  const { status, message } = GOAL_BARS_ERROR_CODES.OVATION_ERR_GOAL_BARS_NOT_FOUND;
  return new BotRouteError(status, "OVATION_ERR_GOAL_BARS_NOT_FOUND", message);
}

/**
 * The goal bars' API (docs/goal-bars.md): configurations with their progress, at `/v1/goal-bars...`
 * for the caller and at `/v1/bots/{user}/goal-bars...` for a channel the caller manages (scope
 * `widgets:manage`, tag `goal bars`). Progress moves with matching notifications or a counter (the
 * module) and can be set by hand here; every change is stored before `changed` tells the browser
 * sources and the answer goes out (a change the store could not write answers 503 and is not told).
 */
export function goalBarsRoutes<G extends SavedGoalBar>(records: GoalBarRecords<G>, changed: (channel: string, goal: G) => void): BotModuleRoute[] {
  const route = { scope: GOAL_BARS_SCOPE, tag: "goal bars", callerPath: true } as const;
  const idOf = (request: BotRouteRequest) => idParams.parse(request.params).id;
  const stored = async (channel: string, goal: G | null, log: BotModuleLog) => {
    if (goal === null) throw notFound();
    await storedOrRouteError(records.persisted(), log, { channel, goalBar: goal.id });
    changed(channel, goal);
    return presentGoalBar(goal);
  };
  const startingValue = async (channel: string, goal: GoalBar, ctx: BotModuleContext) =>
    goal.kind === "counter" && goal.counter !== null ? counterValue(ctx.store, channel, goal.counter) : goal.start_value;

  return [
    {
      ...route,
      method: "GET",
      path: "goal-bars",
      summary: "List the goal bars",
      response: z.object({ data: z.array(goalBarViewSchema) }),
      handle: ({ channel }) => ({ data: records.list(channel).map((goal) => presentGoalBar(goal)) }),
    },
    {
      ...route,
      method: "POST",
      path: "goal-bars",
      summary: "Create a goal bar",
      description:
        "kind: followers | subscribers | bits | tips | counter (with `counter` naming the counter). Progress starts at start_value (a counter goal shows its counter). " +
        "Show it with a `goalbars` browser source whose identifier is the goal bar id.",
      body: goalBarSchema,
      response: goalBarViewSchema,
      status: 201,
      async handle({ channel, body, context }) {
        if (records.list(channel).length >= GOAL_BAR_LIMITS.goalBars) {
          const message = `A user has at most ${GOAL_BAR_LIMITS.goalBars} goal bars.`;
          throw routeValidationError({ title: [message] });
        }
        const goal = goalBarSchema.parse(body);
        return stored(channel, records.create(channel, { ...goal, current: await startingValue(channel, goal, context) }), context.log);
      },
    },
    {
      ...route,
      method: "GET",
      path: "goal-bars/:id",
      summary: "Get a goal bar",
      errors: [404],
      params: idParams,
      response: goalBarViewSchema,
      handle(request) {
        const goal = records.get(request.channel, idOf(request));
        if (goal === null) throw notFound();
        return presentGoalBar(goal);
      },
    },
    {
      ...route,
      method: "PUT",
      path: "goal-bars/:id",
      summary: "Replace a goal bar's configuration",
      errors: [404],
      description: "Progress is kept; a new start_value moves it by the difference. Changing kind or counter starts progress again.",
      params: idParams,
      body: goalBarSchema,
      response: goalBarViewSchema,
      async handle(request) {
        const { channel, context } = request;
        const old = records.get(channel, idOf(request));
        if (old === null) throw notFound();
        const goal = goalBarSchema.parse(request.body);
        const restart = goal.kind !== old.kind || goal.counter !== old.counter;
        const current = restart ? await startingValue(channel, goal, context) : Math.max(0, old.current + goal.start_value - old.start_value);
        return stored(channel, records.replace(channel, old.id, { ...goal, current }), context.log);
      },
    },
    {
      ...route,
      method: "POST",
      path: "goal-bars/:id/progress",
      summary: "Set or move a goal bar's progress by hand",
      errors: [404],
      params: idParams,
      body: goalBarProgressBodySchema,
      response: goalBarViewSchema,
      handle(request) {
        const { operation, value } = goalBarProgressBodySchema.parse(request.body);
        const goal = records.setCurrent(request.channel, idOf(request), (current) => {
          const next = operation === "set" ? value : operation === "increment" ? current + value : current - value;
          return Math.min(GOAL_BAR_LIMITS.progress, Math.max(0, next));
        });
        return stored(request.channel, goal, request.context.log);
      },
    },
    {
      ...route,
      method: "DELETE",
      path: "goal-bars/:id",
      summary: "Delete a goal bar",
      errors: [404],
      params: idParams,
      status: 204,
      handle(request) {
        if (!records.remove(request.channel, idOf(request))) throw notFound();
      },
    },
  ];
}
