import type { FastifyError, FastifyInstance } from "fastify";
import { OvationError, ValidationError, fieldErrorsFromZod, fieldErrorsMessage } from "@ovation/core";
import type { FieldErrors } from "@ovation/core";
import { ApiError } from "../errors.js";
import { RequestValidationError } from "./zod-validator.js";

function prefixed(errors: FieldErrors, prefix: string): FieldErrors {
  if (prefix === "") return errors;
  const out: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) out[`${prefix}.${field}`] = messages;
  return out;
}

/** A 422 from core's Laravel-style field errors. */
export function validationFailure(errors: FieldErrors): ApiError {
  return new ApiError("OVATION_ERR_HTTP_VALIDATION", { message: fieldErrorsMessage(errors), errors });
}

function fromFastifyError(error: FastifyError): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof RequestValidationError) {
    const context = (error as unknown as { validationContext?: string }).validationContext;
    const prefix = context === "params" || context === "querystring" ? context : "";
    return validationFailure(prefixed(fieldErrorsFromZod(error.zodError), prefix));
  }
  if (error instanceof ValidationError) return validationFailure(error.errors);
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError("OVATION_ERR_HTTP_BODY_TOO_LARGE");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError("OVATION_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new ApiError("OVATION_ERR_HTTP_BAD_REQUEST", { message: `The request body is not valid JSON: ${error.message}` });
    default:
      break;
  }
  if (error instanceof OvationError && !(error instanceof ApiError)) return null;
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new ApiError("OVATION_ERR_HTTP_BAD_REQUEST", { message: `The request could not be read: ${error.message}` });
  }
  return null;
}

/**
 * Answers every error in the reference's Laravel shape with a stable `code`: 422 with `errors` for
 * validation, 401/403/404/413/415/429 from the registry, 500 (logged, never detailed) otherwise.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = fromFastifyError(error);
    if (known) {
      if (known.status >= 500) request.log.error({ err: error }, known.message);
      return reply.code(known.status).type("application/json").send(known.toBody());
    }
    request.log.error({ err: error }, "unhandled error");
    const internal = new ApiError("OVATION_ERR_HTTP_INTERNAL");
    return reply.code(500).type("application/json").send(internal.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const notFound = new ApiError("OVATION_ERR_HTTP_NOT_FOUND", { message: `The route ${request.method} ${request.url.split("?")[0]} could not be found.` });
    return reply.code(404).send(notFound.toBody());
  });
}
