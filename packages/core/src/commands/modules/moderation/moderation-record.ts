import { z } from "zod";
import { viewerGroupsSchema } from "../exemptions.js";
import { DOMAIN_PATTERN } from "./links.js";

/** Longest timeout a rule may give (Twitch's maximum: two weeks). */
export const MAX_TIMEOUT_SECONDS = 1_209_600;

/** What a rule does to a message that breaks it: delete it, time the sender out, ban them, or warn in chat. */
export const moderationActionSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("delete") }),
  z.object({ type: z.literal("timeout"), seconds: z.number().int().min(1).max(MAX_TIMEOUT_SECONDS).default(600) }),
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

/** Bounds of the bad-word rule; documented in docs/moderation.md. */
export const MODERATION_LIMITS = {
  /** Entries of `bad_words.words` (single words and phrases). */
  words: 1_000,
  /** Characters of one entry. */
  wordLength: 64,
  /** Entries of `bad_words.patterns`. */
  patterns: 50,
  /** Characters of one pattern. */
  patternLength: 200,
} as const;

const percent = z.number().int().min(1).max(100);

/** The rules of auto-moderation; every rule is off until enabled. */
export const moderationSettingsSchema = z.object({
  caps: z
    .object({ ...ruleBase, min_length: z.number().int().min(1).max(500).default(15), max_percent: percent.default(70) })
    .default({ enabled: false, action: { type: "delete" }, exempt: ["broadcaster", "moderator"], min_length: 15, max_percent: 70 }),
  symbols: z
    .object({ ...ruleBase, min_length: z.number().int().min(1).max(500).default(15), max_percent: percent.default(50) })
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
    .object({ ...ruleBase, max_length: z.number().int().min(1).max(10_000).default(300) })
    .default({ enabled: false, action: { type: "delete" }, exempt: ["broadcaster", "moderator"], max_length: 300 }),
  toxicity: z
    .object({
      enabled: z.boolean().default(false),
      exempt: viewerGroupsSchema.default(["broadcaster", "moderator"]),
      /** Per action, the score (percent) from which it is taken; null leaves the action out. */
      thresholds: z
        .object({ warn: percent.min(30).nullable().default(null), delete: percent.min(30).nullable().default(60), timeout: percent.min(30).nullable().default(80), ban: percent.min(30).nullable().default(null) })
        .default({ warn: null, delete: 60, timeout: 80, ban: null }),
      timeout_seconds: z.number().int().min(1).max(MAX_TIMEOUT_SECONDS).default(600),
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
