/** An inclusive range of whole numbers. */
export interface WholeNumberRange {
  readonly min: number;
  readonly max: number;
}

/**
 * The ranges of auto-moderation's numeric settings, checked on the page before anything is sent.
 * The same numbers as `MODERATION_NUMBER_BOUNDS` of `@ovation/core/api`, which the server's schema
 * reads: copied because importing that entry point reaches server-only packages (re2js) the build
 * refuses, and held equal by `src/__tests__/moderation-bounds.test.ts`.
 */
export const LIMIT_BOUNDS = {
  minLength: { min: 1, max: 500 },
  percent: { min: 1, max: 100 },
  maxLength: { min: 1, max: 10_000 },
  timeoutSeconds: { min: 1, max: 1_209_600 },
  toxicityThreshold: { min: 30, max: 100 },
} as const satisfies Readonly<Record<string, WholeNumberRange>>;
