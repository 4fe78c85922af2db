import { z } from "zod";

// The goal bars' API schemas are the module's own (its routes declare them); listed here with the other API schemas.
export { goalBarProgressBodySchema, goalBarViewSchema } from "../commands/modules/goal-bars/goal-bar-view.js";

/** The overlay switches (`visuals`, `effects`, `sounds`). */
export const overlaySettingsSchema = z.object({ visuals: z.boolean(), effects: z.boolean(), sounds: z.boolean() });
