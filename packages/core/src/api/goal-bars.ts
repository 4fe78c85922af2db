import { z } from "zod";
import { goalBarSchema } from "../goals/goal-bar.js";

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

/** The overlay switches (`visuals`, `effects`, `sounds`). */
export const overlaySettingsSchema = z.object({ visuals: z.boolean(), effects: z.boolean(), sounds: z.boolean() });

/** Body of `POST /v1/goal-bars/{id}/progress`. */
export const goalBarProgressBodySchema = z.object({ operation: z.enum(["set", "increment", "decrement"]).default("set"), value: z.number().finite().min(0).max(1e12) });
