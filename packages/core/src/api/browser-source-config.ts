import { z } from "zod";
import { alertSetViewSchema } from "./alert-sets.js";
import { browserSourceSchema } from "./browser-sources.js";
import { goalBarViewSchema, overlaySettingsSchema } from "./goal-bars.js";

/** Answer of `GET /browser-source/api/{token}/config`: what a browser source page needs to start. */
export const browserSourceConfigSchema = z.object({
  browser_source: browserSourceSchema,
  room: z.string(),
  alert_set: alertSetViewSchema.nullable(),
  goal_bar: goalBarViewSchema.nullable().describe("The goal bar of a goalbars source (null for other types, or when the goal bar was deleted)"),
  overlay: overlaySettingsSchema.describe("The switches of !visuals, !effects and !sounds"),
});
