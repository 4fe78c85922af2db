/**
 * The errors the client throws. Every answer of the server outside 2xx becomes an
 * {@link OvationHttpError} (or one of its subclasses, chosen by status and `code`); a request that
 * got no answer at all becomes an {@link OvationNetworkError}.
 */

/** Laravel-style field errors: field path (`name`, `0.keyword`, `params.id`) to messages. */
export type FieldErrors = Record<string, string[]>;

/** The error codes that mean "this call needs an Elevated Access Token" (main API and identity module). */
export const EAT_REQUIRED_CODES: readonly string[] = ["OVATION_ERR_AUTH_EAT_REQUIRED", "OVATION_ERR_IDENTITY_EAT_REQUIRED"];

/** The error codes that mean "the Elevated Access Token sent is unknown, expired or someone else's". */
export const EAT_INVALID_CODES: readonly string[] = ["OVATION_ERR_AUTH_EAT_INVALID", "OVATION_ERR_IDENTITY_EAT_INVALID"];

/** What the failed request was. */
export interface RequestInfo {
  readonly method: string;
  readonly url: string;
}

/** An answer of the server with a status outside 2xx. */
export class OvationHttpError extends Error {
  override readonly name: string = "OvationHttpError";
  /** HTTP status. */
  readonly status: number;
  /** The registered `OVATION_ERR_...` code of the body, or null when the body has none. */
  readonly code: string | null;
  /** Field errors of the body (empty when it has none). */
  readonly errors: FieldErrors;
  /** The parsed body (JSON), or its text. */
  readonly body: unknown;
  /** The request that failed. */
  readonly request: RequestInfo;

  constructor(status: number, body: unknown, request: RequestInfo) {
    const fields = bodyFields(body);
    super(fields.message ?? `${request.method} ${request.url} answered ${status}`);
    this.status = status;
    this.code = fields.code;
    this.errors = fields.errors;
    this.body = body;
    this.request = request;
  }
}

/** 422: the request was read but is invalid; `errors` names each bad field. */
export class OvationValidationError extends OvationHttpError {
  override readonly name: string = "OvationValidationError";
}

/** 401 or 403: no valid token, a missing scope, or someone else's resource. */
export class OvationAuthError extends OvationHttpError {
  override readonly name: string = "OvationAuthError";
}

/**
 * 401 on a sensitive call: it needs an `Elevated-Access-Token` (`reason: "required"`) or the one
 * sent is not valid (`reason: "invalid"`). Catch it to ask the user for the mailed code
 * (`eat.requestVerification()`, then `eat.verifyCode(code)`), then repeat the call with `{ eat }`.
 */
export class OvationEatRequiredError extends OvationAuthError {
  override readonly name: string = "OvationEatRequiredError";
  /** Whether no EAT was sent or the one sent was refused. */
  readonly reason: "required" | "invalid";

  constructor(status: number, body: unknown, request: RequestInfo) {
    super(status, body, request);
    this.reason = EAT_INVALID_CODES.includes(this.code ?? "") ? "invalid" : "required";
  }
}

/** 404: no such route or resource (or not yours). */
export class OvationNotFoundError extends OvationHttpError {
  override readonly name: string = "OvationNotFoundError";
}

/** 409: the resource is in a state that forbids the call (for example a giveaway already open). */
export class OvationConflictError extends OvationHttpError {
  override readonly name: string = "OvationConflictError";
}

/** 429: too many requests; wait `retryAfter` seconds (from `Retry-After`, null when absent). */
export class OvationRateLimitError extends OvationHttpError {
  override readonly name: string = "OvationRateLimitError";
  /** Seconds to wait before trying again, or null when the server did not say. */
  readonly retryAfter: number | null;

  constructor(status: number, body: unknown, request: RequestInfo, retryAfter: number | null) {
    super(status, body, request);
    this.retryAfter = retryAfter;
  }
}

/** 5xx: the server failed (or, 503, a service it needs is unreachable). */
export class OvationServerError extends OvationHttpError {
  override readonly name: string = "OvationServerError";
}

/** The request got no answer (connection refused, DNS, CORS, aborted). `cause` holds the fetch error. */
export class OvationNetworkError extends Error {
  override readonly name: string = "OvationNetworkError";
  /** The request that failed. */
  readonly request: RequestInfo;

  constructor(request: RequestInfo, cause: unknown) {
    super(`${request.method} ${request.url} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.request = request;
  }
}

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The error class for an answer: by status, and the EAT codes among the 401s. */
export function errorFor(status: number, body: unknown, request: RequestInfo, retryAfter: string | null = null): OvationHttpError {
  const code = bodyFields(body).code ?? "";
  if (status === 401 && (EAT_REQUIRED_CODES.includes(code) || EAT_INVALID_CODES.includes(code))) return new OvationEatRequiredError(status, body, request);
  if (status === 401 || status === 403) return new OvationAuthError(status, body, request);
  if (status === 404) return new OvationNotFoundError(status, body, request);
  if (status === 409) return new OvationConflictError(status, body, request);
  if (status === 422) return new OvationValidationError(status, body, request);
  if (status === 429) return new OvationRateLimitError(status, body, request, parseRetryAfter(retryAfter));
  if (status >= 500) return new OvationServerError(status, body, request);
  return new OvationHttpError(status, body, request);
}

function bodyFields(body: unknown): { message: string | null; code: string | null; errors: FieldErrors } {
  if (body === null || typeof body !== "object") return { message: null, code: null, errors: {} };
  const record = body as Record<string, unknown>;
  const errors: FieldErrors = {};
  const raw = record["errors"];
  if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
    for (const [field, messages] of Object.entries(raw as Record<string, unknown>)) {
      if (Array.isArray(messages)) errors[field] = messages.map(String);
    }
  }
  // The authorization server answers OAuth errors as {error, error_description}.
  const message = typeof record["message"] === "string" ? record["message"] : typeof record["error_description"] === "string" ? record["error_description"] : null;
  return { message, code: typeof record["code"] === "string" ? record["code"] : null, errors };
}
