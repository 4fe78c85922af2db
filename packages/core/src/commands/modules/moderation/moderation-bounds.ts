/**
 * The bounds of auto-moderation's settings, apart from their schema (moderation-record.ts) so a
 * page can check a value before it is sent without loading zod: the dashboard's auto-moderation
 * page and the server check the same numbers.
 */

/** Longest timeout a rule may give (Twitch's maximum: two weeks). */
export const MAX_TIMEOUT_SECONDS = 1_209_600;

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

/** An inclusive range of whole numbers. */
export interface WholeNumberRange {
  readonly min: number;
  readonly max: number;
}

/** The ranges of the numeric settings (whole numbers), by what they count; documented in docs/moderation.md. */
export const MODERATION_NUMBER_BOUNDS = {
  /** `caps.min_length`, `symbols.min_length`: characters a message needs before the rule looks at it. */
  minLength: { min: 1, max: 500 },
  /** `caps.max_percent`, `symbols.max_percent`. */
  percent: { min: 1, max: 100 },
  /** `length.max_length`: characters. */
  maxLength: { min: 1, max: 10_000 },
  /** `<rule>.action.seconds` of a timeout, `toxicity.timeout_seconds`. */
  timeoutSeconds: { min: 1, max: MAX_TIMEOUT_SECONDS },
  /** `toxicity.thresholds.<action>`: the score in percent (null leaves the action out). */
  toxicityThreshold: { min: 30, max: 100 },
} as const satisfies Readonly<Record<string, WholeNumberRange>>;
