import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";

/** The fastify instance with zod schemas as its type provider. */
export type ZodApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

/** The Laravel-style error body every error answers with. */
export const errorBodySchema = z
  .object({
    message: z.string(),
    code: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .loose()
  .meta({ id: "Error" });

/** Responses every authenticated route can give besides its own. */
export const authErrorResponses = {
  401: errorBodySchema,
  403: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
} as const;

/** An integer id in a path. */
export const idParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
