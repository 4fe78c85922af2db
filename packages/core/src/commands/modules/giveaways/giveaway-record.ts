import { z } from "zod";
import type { BotRouteErrorEntry } from "../route-errors.js";

/**
 * The giveaway routes' error codes, each with its status, message and meaning (the server's registry
 * spreads this table; apps/server/README.md documents them).
 */
export const GIVEAWAYS_ERROR_CODES = {
  OVATION_ERR_GIVEAWAYS_STATE: {
    status: 409,
    message: "The giveaway cannot do this now.",
    description: "Opening while a giveaway is open, closing when none is open, drawing with nobody (left) to draw, rerolling an unknown winner.",
  },
} as const satisfies Readonly<Record<string, BotRouteErrorEntry>>;

/** Who may enter a giveaway. */
export const GIVEAWAY_ELIGIBILITY = ["everyone", "followers", "subscribers"] as const;
/** One of {@link GIVEAWAY_ELIGIBILITY}. */
export type GiveawayEligibility = (typeof GIVEAWAY_ELIGIBILITY)[number];

/** Bounds of a giveaway; documented in docs/giveaways.md. */
export const GIVEAWAY_LIMITS = {
  keywordLength: 64,
  maxSubscriberWeight: 10,
  maxWinnersPerDraw: 100,
  /** Largest (and default) `max_entries` of a giveaway. */
  maxEntries: 100_000,
} as const;

/**
 * How a giveaway runs: viewers enter by writing `keyword` as the first word of a message; one
 * entry per viewer and platform; subscribers hold `subscriber_weight` tickets (1 = same chance as
 * everyone).
 */
export const giveawaySettingsSchema = z.object({
  title: z.string().trim().max(200).default(""),
  keyword: z
    .string()
    .trim()
    .min(1)
    .max(GIVEAWAY_LIMITS.keywordLength)
    .regex(/^\S+$/, "must be one word (no spaces)"),
  eligibility: z.enum(GIVEAWAY_ELIGIBILITY).default("everyone"),
  subscriber_weight: z.number().int().min(1).max(GIVEAWAY_LIMITS.maxSubscriberWeight).default(1),
  /** Announce opening, closing and winners in chat. */
  announce: z.boolean().default(true),
  /** Most entries this giveaway takes; later ones are answered `full`. */
  max_entries: z.number().int().min(1).max(GIVEAWAY_LIMITS.maxEntries).default(GIVEAWAY_LIMITS.maxEntries),
});

/** Validated giveaway settings. */
export type GiveawaySettings = z.output<typeof giveawaySettingsSchema>;
/** Giveaway settings as written. */
export type GiveawaySettingsInput = z.input<typeof giveawaySettingsSchema>;

/** One viewer's entry. */
export const giveawayEntrySchema = z.object({
  platform: z.string(),
  user_platform_id: z.string(),
  username: z.string(),
  /** Tickets: 1, or `subscriber_weight` for a subscriber. */
  weight: z.number().int().min(1),
  entered_at: z.number().int(),
});
/** One viewer's entry. */
export type GiveawayEntry = z.output<typeof giveawayEntrySchema>;

/** A drawn winner; `rerolled` when the winner was replaced by a reroll. */
export const giveawayWinnerSchema = z.object({
  platform: z.string(),
  user_platform_id: z.string(),
  username: z.string(),
  drawn_at: z.number().int(),
  rerolled: z.boolean(),
});
/** A drawn winner. */
export type GiveawayWinner = z.output<typeof giveawayWinnerSchema>;

/** The whole state of a giveaway, as stored (entries survive a restart). */
export const giveawayStateSchema = z.object({
  id: z.string(),
  settings: giveawaySettingsSchema,
  status: z.enum(["open", "closed"]),
  opened_at: z.number().int(),
  closed_at: z.number().int().nullable(),
  entries: z.array(giveawayEntrySchema),
  winners: z.array(giveawayWinnerSchema),
});
/** The whole state of a giveaway. */
export type GiveawayState = z.output<typeof giveawayStateSchema>;
