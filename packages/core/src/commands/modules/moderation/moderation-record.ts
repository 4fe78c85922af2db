import { z } from "zod";
import { viewerGroupsSchema } from "../exemptions.js";
import { DOMAIN_PATTERN } from "./links.js";
import { MODERATION_LIMITS, MODERATION_NUMBER_BOUNDS } from "./moderation-bounds.js";
import type { WholeNumberRange } from "./moderation-bounds.js";

const whole = ({ min, max }: WholeNumberRange) => z.number().int().min(min).max(max);

/** What a rule does to a message that breaks it: delete it, time the sender out, ban them, or warn in chat. */
export const moderationActionSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("delete") }),
  z.object({ type: z.literal("timeout"), seconds: whole(MODERATION_NUMBER_BOUNDS.timeoutSeconds).default(600) }),
  z.object({ type: z.literal("ban") }),
  z.object({ type: z.literal("warn") }),
]);
/** One moderation action. */
export type ModerationAction = z.output<typeof moderationActionSchema>;
/** The kinds of moderation action, mildest first. */
export const MODERATION_ACTION_TYPES = ["warn", "delete", "timeout", "ban"] as const;
/** One of {@link MODERATION_ACTION_TYPES}. */
export type ModerationActionType = (typeof MODERATION_ACTION_TYPES)[number];

const ruleBase = {
  enabled: z.boolean().default(false),
  action: moderationActionSchema.default({ type: "delete" }),
  /** Viewer groups the rule spares. */
  exempt: viewerGroupsSchema.default(["broadcaster", "moderator"]),
};

const percent = whole(MODERATION_NUMBER_BOUNDS.percent);
const minLength = whole(MODERATION_NUMBER_BOUNDS.minLength);
const threshold = whole(MODERATION_NUMBER_BOUNDS.toxicityThreshold).nullable();

/** The rules of auto-moderation; every rule is off until enabled. */
export const moderationSettingsSchema = z.object({
  caps: z
    .object({ ...ruleBase, min_length: minLength.default(15), max_percent: percent.default(70) })
    .default({ enabled: false, action: { type: "delete" }, exempt: ["broadcaster", "moderator"], min_length: 15, max_percent: 70 }),
  symbols: z
    .object({ ...ruleBase, min_length: minLength.default(15), max_percent: percent.default(50) })
    .default({ enabled: false, action: { type: "delete" }, exempt: ["broadcaster", "moderator"], min_length: 15, max_percent: 50 }),
  links: z
    .object({
      ...ruleBase,
      allowed_domains: z
        .array(z.string().trim().toLowerCase().regex(DOMAIN_PATTERN, "must be a domain written like example.com (no scheme, no path)"))
        .max(200)
        .default([]),
    })
    .default({ enabled: false, action: { type: "delete" }, exempt: ["broadcaster", "moderator"], allowed_domains: [] }),
  bad_words: z
    .object({
      ...ruleBase,
      words: z.array(z.string().trim().min(1).max(MODERATION_LIMITS.wordLength)).max(MODERATION_LIMITS.words).default([]),
      /** RE2 patterns (no backreferences or lookaround), matched against the message as written. */
      patterns: z.array(z.string().min(1).max(MODERATION_LIMITS.patternLength)).max(MODERATION_LIMITS.patterns).default([]),
    })
    .default({ enabled: false, action: { type: "delete" }, exempt: ["broadcaster", "moderator"], words: [], patterns: [] }),
  length: z
    .object({ ...ruleBase, max_length: whole(MODERATION_NUMBER_BOUNDS.maxLength).default(300) })
    .default({ enabled: false, action: { type: "delete" }, exempt: ["broadcaster", "moderator"], max_length: 300 }),
  toxicity: z
    .object({
      enabled: z.boolean().default(false),
      exempt: viewerGroupsSchema.default(["broadcaster", "moderator"]),
      /** Per action, the score (percent) from which it is taken; null leaves the action out. */
      thresholds: z
        .object({ warn: threshold.default(null), delete: threshold.default(60), timeout: threshold.default(80), ban: threshold.default(null) })
        .default({ warn: null, delete: 60, timeout: 80, ban: null }),
      timeout_seconds: whole(MODERATION_NUMBER_BOUNDS.timeoutSeconds).default(600),
    })
    .default({ enabled: false, exempt: ["broadcaster", "moderator"], thresholds: { warn: null, delete: 60, timeout: 80, ban: null }, timeout_seconds: 600 }),
});

/** Validated moderation settings. */
export type ModerationSettings = z.output<typeof moderationSettingsSchema>;
/** Moderation settings as written (anything left out takes its default). */
export type ModerationSettingsInput = z.input<typeof moderationSettingsSchema>;
/** The names of the rules. */
export const MODERATION_RULES = ["caps", "symbols", "links", "bad_words", "length", "toxicity"] as const;
/** One of {@link MODERATION_RULES}. */
export type ModerationRule = (typeof MODERATION_RULES)[number];
