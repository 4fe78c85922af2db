import { z } from "zod";

/** The quotes table (key = the quote's number as a string) and the table holding the next number. */
export const QUOTES_TABLE = "quotes";
export const QUOTES_META_TABLE = "quotes_meta";
export const QUOTES_NEXT_KEY = "next_id";

/** Limits of the quotes module. */
export const QUOTE_LIMITS = {
  /** Quotes per channel. */
  quotes: 2_000,
  /** Characters of a quote. */
  text: 500,
  /** Characters of the game and title kept with a quote. */
  game: 200,
  title: 300,
  /** Characters of who added it. */
  addedBy: 64,
} as const;

/** Error codes the quotes routes answer with (docs/quotes.md). */
export const QUOTES_ERROR_CODES = {
  notFound: "OVATION_ERR_QUOTES_NOT_FOUND",
  limitReached: "OVATION_ERR_QUOTES_LIMIT_REACHED",
} as const;

const plain = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(/^[^\p{Cc}\p{Cf}]*$/u, "must not hold control or invisible characters");

/** What creating or editing a quote takes. */
export const quoteInputSchema = z.object({
  text: plain(QUOTE_LIMITS.text).min(1),
  /** The category being streamed when it was said. */
  game: plain(QUOTE_LIMITS.game).nullable().default(null),
  title: plain(QUOTE_LIMITS.title).nullable().default(null),
  /** When it was said (default: now). */
  said_at: z.iso.datetime({ offset: true }).optional(),
});
export type QuoteInput = z.input<typeof quoteInputSchema>;

/** A stored quote. */
export const quoteSchema = z.object({
  id: z.number().int().min(1),
  text: z.string(),
  game: z.string().nullable(),
  title: z.string().nullable(),
  said_at: z.string(),
  /** Who added it: a moderator's chat name, or `api`. */
  added_by: z.string().nullable(),
  /** The platform it was added on (null through the API). */
  platform: z.string().nullable(),
});
export type Quote = z.output<typeof quoteSchema>;
