import type { FastifySchemaCompiler } from "fastify";
import type { z } from "zod";

/** A request part that failed its zod schema; the error handler turns it into a Laravel 422. */
export class RequestValidationError extends Error {
  override readonly name = "RequestValidationError";
  constructor(readonly zodError: z.ZodError) {
    super("The given data was invalid.");
  }
}

/**
 * Validates request parts with their zod schemas and keeps the zod error whole (the stock
 * compiler flattens it), so 422 bodies can name each field and rule with core's `fieldErrorsFromZod`.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema }) => (data: unknown) => {
  const result = schema.safeParse(data);
  return result.success ? { value: result.data } : { error: new RequestValidationError(result.error) };
};
