import { goalBarSchema, goalProgress } from "@ovation/core";
import type { BotSettings, GoalBar, GoalBarView, OverlaySettings } from "@ovation/core";
import { z } from "zod";
import type { GoalBarRecord } from "../../store/bot-modules.js";

/** The configuration fields of a stored goal bar. */
export function goalBarFields(record: GoalBarRecord): GoalBar {
  return {
    title: record.title,
    kind: record.kind,
    counter: record.counter,
    target: record.target,
    start_value: record.start_value,
    ends_at: record.ends_at,
    style: { ...record.style },
  };
}

/** A goal bar as the API answers and browser sources receive it (`goal_bar`, and the deprecated `goalBar`). */
export function presentGoalBar(record: GoalBarRecord, now = Date.now()): GoalBarView {
  const goal = goalBarFields(record);
  return {
    id: record.id,
    goal_bar: goal,
    goalBar: structuredClone(goal),
    progress: goalProgress(goal, record.current, now),
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** The overlay switches of the bot settings. */
export function overlaySwitches(settings: BotSettings): OverlaySettings {
  return { visuals: settings.visuals, effects: settings.effects, sounds: settings.sounds };
}

/** OpenAPI schema of {@link presentGoalBar}. */
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

/** OpenAPI schema of {@link overlaySwitches}. */
export const overlaySettingsSchema = z.object({ visuals: z.boolean(), effects: z.boolean(), sounds: z.boolean() });
