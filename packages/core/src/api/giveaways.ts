import { z } from "zod";
import { GIVEAWAY_LIMITS } from "../commands/modules/giveaways/giveaway-record.js";

const entrySchema = z.object({ platform: z.string(), user_platform_id: z.string(), username: z.string(), weight: z.number(), entered_at: z.number() });

/** A drawn winner. */
export const giveawayWinnerSchema = z.object({ platform: z.string(), user_platform_id: z.string(), username: z.string(), drawn_at: z.number(), rerolled: z.boolean() });

/** A giveaway as the API returns it. */
export const giveawayViewSchema = z
  .object({
    id: z.string(),
    settings: z.object({ title: z.string(), keyword: z.string(), eligibility: z.string(), subscriber_weight: z.number(), announce: z.boolean(), max_entries: z.number() }),
    status: z.enum(["open", "closed"]),
    opened_at: z.number(),
    closed_at: z.number().nullable(),
    entry_count: z.number(),
    ticket_count: z.number(),
    entries: z.array(entrySchema),
    winners: z.array(giveawayWinnerSchema).describe("Every winner drawn, in order; a rerolled winner stays listed with rerolled: true"),
  })
  .meta({ id: "Giveaway" });

/** Answer of `GET /v1/bots/{user}/giveaways`. */
export const giveawayCurrentSchema = z.object({ data: giveawayViewSchema.nullable() });

/** Body of `POST /v1/bots/{user}/giveaways/draw` (an empty body draws one). */
export const giveawayDrawBodySchema = z.preprocess((body) => body ?? {}, z.object({ count: z.number().int().min(1).max(GIVEAWAY_LIMITS.maxWinnersPerDraw).default(1) }));

/** Answer of the draw. */
export const giveawayDrawSchema = z.object({ winners: z.array(giveawayWinnerSchema), giveaway: giveawayViewSchema });

/** Body of `POST /v1/bots/{user}/giveaways/reroll`. */
export const giveawayRerollBodySchema = z.object({ platform: z.string().min(1).max(32), user_platform_id: z.string().min(1).max(256) });

/** Answer of the reroll. */
export const giveawayRerollSchema = z.object({ winner: giveawayWinnerSchema, giveaway: giveawayViewSchema });
