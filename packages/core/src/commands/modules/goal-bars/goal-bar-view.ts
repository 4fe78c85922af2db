import { z } from "zod";
import { goalBarSchema, goalProgress } from "../../../goals/goal-bar.js";
import type { GoalBar } from "../../../goals/goal-bar.js";
import type { GoalBarView } from "../../../realtime/events.js";
import type { SavedGoalBar } from "./goal-bar-records.js";

/** A goal bar as the API answers and browser sources receive it (`goal_bar`, and the deprecated `goalBar`). */
export const goalBarViewSchema = z
  .object({
    id: z.number(),
    goal_bar: goalBarSchema,
    goalBar: goalBarSchema.meta({ deprecated: true, description: "Deprecated (notice of 2023-02-06): use goal_bar. Same content." }),
    progress: z.object({ current: z.number(), target: z.number(), percent: z.number(), ended: z.boolean() }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "GoalBarConfig" });

/** Body of `POST /v1/goal-bars/{id}/progress`. */
export const goalBarProgressBodySchema = z.object({ operation: z.enum(["set", "increment", "decrement"]).default("set"), value: z.number().finite().min(0).max(1e12) });

/** The configuration fields of a stored goal bar. */
export function goalBarFields(goal: SavedGoalBar): GoalBar {
  return {
    title: goal.title,
    kind: goal.kind,
    counter: goal.counter,
    target: goal.target,
    start_value: goal.start_value,
    ends_at: goal.ends_at,
    style: { ...goal.style },
  };
}

/** A goal bar as the API answers and browser sources receive it (`goal_bar`, and the deprecated `goalBar`). */
export function presentGoalBar(goal: SavedGoalBar, now = Date.now()): GoalBarView {
  const fields = goalBarFields(goal);
  return {
    id: goal.id,
    goal_bar: fields,
    goalBar: structuredClone(fields),
    progress: goalProgress(fields, goal.current, now),
    created_at: goal.created_at,
    updated_at: goal.updated_at,
  };
}
