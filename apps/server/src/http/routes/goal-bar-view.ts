import { goalProgress } from "@ovation/core";
import type { BotSettings, GoalBar, GoalBarView, OverlaySettings } from "@ovation/core";
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


