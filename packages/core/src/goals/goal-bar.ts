import * as z from "zod";

/** What a goal bar counts. */
export const GOAL_BAR_KINDS = ["followers", "subscribers", "bits", "tips", "counter"] as const;
/** One of {@link GOAL_BAR_KINDS}. */
export type GoalBarKind = (typeof GOAL_BAR_KINDS)[number];

const color = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, "must be a hex color like #a1b2c3");

/** How a goal bar looks (every field has a default). */
export const goalBarStyleSchema = z.object({
  bar_color: color.default("#6c5ce7"),
  background_color: color.default("#1e1e2e"),
  text_color: color.default("#ffffff"),
  font_family: z.string().trim().min(1).max(100).regex(/^[\w\s,'"-]+$/, "must be font names separated by commas").default("Inter, sans-serif"),
  font_size: z.number().int().min(8).max(96).default(24),
  height: z.number().int().min(8).max(400).default(48),
  border_radius: z.number().int().min(0).max(200).default(12),
  show_values: z.boolean().default(true),
  show_percent: z.boolean().default(true),
});
/** A goal bar's style. */
export type GoalBarStyle = z.output<typeof goalBarStyleSchema>;

/** Bounds of goal values. */
const amount = z.number().finite().min(0).max(1e12);

/**
 * A goal bar configuration. `counter` names the counter of a `counter` goal (the `counters` table
 * of the bot's key-value store) and must be null otherwise. Progress starts at `start_value`;
 * after `ends_at` (ISO 8601) it stops moving.
 */
export const goalBarSchema = z
  .object({
    title: z.string().trim().min(1).max(100),
    kind: z.enum(GOAL_BAR_KINDS),
    counter: z.string().trim().min(1).max(128).nullable().default(null),
    target: amount.positive(),
    start_value: amount.default(0),
    ends_at: z.iso.datetime({ offset: true }).nullable().default(null),
    style: goalBarStyleSchema.default(goalBarStyleSchema.parse({})),
  })
  .superRefine((goal, ctx) => {
    if (goal.kind === "counter" && goal.counter === null) ctx.addIssue({ code: "custom", path: ["counter"], message: "is required when kind is counter" });
    if (goal.kind !== "counter" && goal.counter !== null) ctx.addIssue({ code: "custom", path: ["counter"], message: "must be null unless kind is counter" });
  });
/** A validated goal bar configuration. */
export type GoalBar = z.output<typeof goalBarSchema>;
/** A goal bar configuration as written. */
export type GoalBarInput = z.input<typeof goalBarSchema>;

function numberOf(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * How much a notification moves a goal of `kind`: a follow counts 1 for `followers`; a new
 * subscription or a resubscription 1 for `subscribers` (a gifted subscription through its
 * `gift-subscribe` `amount`, not through each recipient's `subscribe`); a cheer its `amount` for
 * `bits`; a donation, Super Chat or charity donation its `amount` for `tips` (in the currency sent,
 * not converted). Anything else moves nothing; a `counter` goal moves with its counter instead.
 */
export function goalIncrement(kind: GoalBarKind, type: string, data: Readonly<Record<string, unknown>>): number {
  switch (kind) {
    case "followers":
      return type === "follow" ? 1 : 0;
    case "subscribers":
      if (type === "subscribe") return data["is_gift"] === true ? 0 : 1;
      if (type === "re-subscribe") return 1;
      if (type === "gift-subscribe") return Math.floor(numberOf(data["amount"])) || 1;
      return 0;
    case "bits":
      return type === "cheer" ? Math.floor(numberOf(data["amount"])) : 0;
    case "tips":
      return type === "donation" || type === "superchat" || type === "charity-donation" ? numberOf(data["amount"]) : 0;
    case "counter":
      return 0;
  }
}

/** A goal bar with its progress, as the API and browser sources receive it. */
export interface GoalBarProgress {
  current: number;
  target: number;
  /** 0-100, rounded down to a tenth. */
  percent: number;
  /** True once `ends_at` has passed. */
  ended: boolean;
}

/** The progress view of a goal at `now`. */
export function goalProgress(goal: Pick<GoalBar, "target" | "ends_at">, current: number, now = Date.now()): GoalBarProgress {
  const percent = Math.min(100, Math.floor((Math.max(0, current) / goal.target) * 1000) / 10);
  return { current, target: goal.target, percent, ended: goal.ends_at !== null && Date.parse(goal.ends_at) <= now };
}
