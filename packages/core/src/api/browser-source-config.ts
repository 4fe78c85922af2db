import { z } from "zod";
import { alertSetViewSchema } from "./alert-sets.js";
import { notifySubSchema } from "../notifications/notifysub.js";
import { browserSourceSchema } from "./browser-sources.js";
import { goalBarViewSchema, overlaySettingsSchema } from "./goal-bars.js";

/** Answer of `GET /browser-source/api/{token}/config`: what a browser source page needs to start. */
export const browserSourceConfigSchema = z.object({
  browser_source: browserSourceSchema,
  room: z.string(),
  alert_set: alertSetViewSchema.nullable(),
  goal_bar: goalBarViewSchema.nullable().describe("The goal bar of a goalbars source (null for other types, or when the goal bar was deleted)"),
  overlay: overlaySettingsSchema.describe("The switches of !visuals, !effects and !sounds"),
  chat_rooms: z
    .array(z.string())
    .describe("chat, emotewall: the public `.chat` rooms of the user's channels (the console's and every served or linked platform channel)"),
  alert_log: z.array(notifySubSchema).describe("events: the user's latest alerts, newest first (the dashboard's alert log); [] for other types"),
  scene_parts: z
    .array(
      z.object({
        browser_source_id: z.number(),
        browser_source_type: z.string(),
        browser_source_url: z.string(),
        x: z.number(),
        y: z.number(),
        width: z.number(),
        height: z.number(),
      }),
    )
    .describe("scenes: the parts that still exist, in drawing order; [] for other types"),
  module_state: z
    .unknown()
    .describe("queue, poll: the state the bot module gives a new source (docs/queue.md, docs/polls.md); null for other types"),
});
