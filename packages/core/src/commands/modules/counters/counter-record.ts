import { z } from "zod";
import type { BotRouteErrorEntry } from "../route-errors.js";

/** Most items one counters request may carry. */
export const COUNTERS_PER_REQUEST = 100;

const nameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 letters, digits, _ or -")
  .describe("The counter's name; templates read it as db('counters').<name>");
const keywordSchema = z
  .string()
  .regex(/^!?[A-Za-z0-9_-]{1,32}$/, "must be a chat word of 1 to 32 letters, digits, _ or - (a leading ! is dropped)")
  .transform((keyword) => keyword.replace(/^!/, "").toLowerCase())
  .nullable()
  .describe("`!<keyword>` in chat shows the counter; `!<keyword> +` / `-` change it (moderators)");
/**
 * Largest counter value (2^53 - 1, `Number.MAX_SAFE_INTEGER`): past it a JavaScript number can no
 * longer hold every integer, and increments would be lost. Values and results beyond it are refused.
 */
export const COUNTER_MAX_VALUE = Number.MAX_SAFE_INTEGER;

const valueSchema = z
  .number()
  .int()
  .min(-COUNTER_MAX_VALUE, "must be at least -(2^53 - 1)")
  .max(COUNTER_MAX_VALUE, "must be at most 2^53 - 1 (9007199254740991)")
  .nullable();

/** A counter as the API returns it. */
export const counterSchema = z
  .object({ name: z.string(), keyword: z.string().nullable(), value: z.number().nullable(), active: z.boolean() })
  .meta({ id: "Counter" });

/** The list answer of every counters call. */
export const counterListSchema = z.array(counterSchema);

const list = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(COUNTERS_PER_REQUEST);

/** Body of `POST /v1/bots/{bot}/counters`. */
export const counterCreateBodySchema = list(z.object({ name: nameSchema, keyword: keywordSchema.optional(), value: valueSchema.optional(), active: z.boolean().optional() }));
/** Body of `PATCH /v1/bots/{bot}/counters`. */
export const counterUpdateBodySchema = list(z.object({ name: nameSchema, keyword: keywordSchema.optional(), value: valueSchema.optional(), active: z.boolean().optional() }));
/** Body of `POST /v1/bots/{bot}/counters/values`. */
export const counterValuesBodySchema = list(
  z
    .object({
      name: nameSchema,
      value: valueSchema.optional().describe("The step of increment/decrement (default 1) or the new value of set (null clears it)"),
      operation: z.enum(["increment", "decrement", "set"]),
    })
    .refine((item) => item.operation !== "set" || item.value !== undefined, { path: ["value"], message: "is required when operation is set", params: { rule: "required_if" } }),
);
/** Body of `DELETE /v1/bots/{bot}/counters`. */
export const counterDeleteBodySchema = list(z.object({ name: nameSchema }));

/**
 * The counters API's error codes with their status and message (the server's registry spreads them
 * in; docs/counters.md and apps/server/README.md list them). Every one is a 422 whose `errors` name
 * the bad item as `<index>.<field>`.
 */
export const COUNTERS_ERROR_CODES = {
  OVATION_ERR_COUNTERS_NOT_FOUND: { status: 422, message: "No such counter.", description: "An item of a counters request names a counter you do not have; `errors` names the item's index and field." },
  OVATION_ERR_COUNTERS_CONFLICT: { status: 422, message: "The counter conflicts with another.", description: "A counter name or keyword is already taken (by a counter, or a keyword by a command); `errors` names the index and field." },
  OVATION_ERR_COUNTERS_OUT_OF_RANGE: {
    status: 422,
    message: "The counter value is out of range.",
    description: "A counter operation whose result would pass 2^53 - 1 (9007199254740991) or -(2^53 - 1): past it increments are lost; `errors` names the index and field, and the counter is unchanged.",
  },
} as const satisfies Readonly<Record<string, BotRouteErrorEntry>>;

/** One of {@link COUNTERS_ERROR_CODES}. */
export type CountersErrorCode = keyof typeof COUNTERS_ERROR_CODES;
