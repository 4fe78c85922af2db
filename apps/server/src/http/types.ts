import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorBodySchema, idParam } from "@ovation/core/api";

/** The fastify instance with zod schemas as its type provider. */
export type ZodApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;


/** Responses every authenticated route can give besides its own. */
export const authErrorResponses = {
  401: errorBodySchema,
  403: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
} as const;

export { idParam, errorBodySchema };
