import { httpErrorClassFor } from "../http-error.js";
import type { ErrorCodeEntry } from "../http-error.js";

/**
 * Every error code the identity module answers with. Kept apart from the host's registry so the
 * module can run on its own host; the body shape is the same (`{message, code, errors?}`).
 * Each code is documented in docs/identity.md; a test keeps both in step.
 */
export const IDENTITY_ERROR_CODES = {
  OVATION_ERR_IDENTITY_UNAUTHENTICATED: { status: 401, message: "Unauthenticated.", description: "No bearer token, or one that is unknown, expired or revoked." },
  OVATION_ERR_IDENTITY_MISSING_SCOPE: { status: 403, message: "This action is unauthorized.", description: "The token lacks a scope the endpoint needs; `missing_scopes` lists them." },
  OVATION_ERR_IDENTITY_USER_TOKEN_REQUIRED: { status: 403, message: "This action needs a user's token.", description: "An app access token (client credentials) was used where a user is needed." },
  OVATION_ERR_IDENTITY_VALIDATION: { status: 422, message: "The given data was invalid.", description: "The body or query failed validation; `errors` maps each field to its messages." },
  OVATION_ERR_IDENTITY_EAT_REQUIRED: { status: 401, message: "An elevated access token is required.", description: "A sensitive endpoint was called without the `Elevated-Access-Token` header." },
  OVATION_ERR_IDENTITY_EAT_INVALID: { status: 401, message: "The elevated access token is invalid or expired.", description: "The EAT is unknown, expired, revoked or belongs to another user than the bearer token." },
  OVATION_ERR_IDENTITY_EAT_CODE_INVALID: { status: 422, message: "The verification code is invalid.", description: "Wrong, expired or already used one-time code; `attempts_left` says how many tries the current code has." },
  OVATION_ERR_IDENTITY_EAT_CODE_BURNED: { status: 422, message: "Too many wrong codes; request a new one.", description: "The code took 5 wrong tries and was burned." },
  OVATION_ERR_IDENTITY_RATE_LIMITED: { status: 429, message: "Too Many Attempts.", description: "Too many verification requests or sign-in attempts; wait `retry_after` seconds." },
  OVATION_ERR_IDENTITY_NOT_SHADOW: { status: 409, message: "This account already has a password.", description: "associate-password is only for shadow accounts (created through a platform login)." },
  OVATION_ERR_IDENTITY_NO_EMAIL: { status: 409, message: "This account has no email address.", description: "A code cannot be mailed: set an address with update-email first." },
  OVATION_ERR_IDENTITY_NOT_FOUND: { status: 404, message: "Not found.", description: "No such token, key or record for this user." },
  OVATION_ERR_IDENTITY_PASSWORD_INCORRECT: { status: 422, message: "The password is incorrect.", description: "change-password with a wrong current password." },
  OVATION_ERR_IDENTITY_EMAIL_TAKEN: { status: 422, message: "The email has already been taken.", description: "Another account uses this address." },
  OVATION_ERR_IDENTITY_TOTP_ALREADY_ENABLED: { status: 409, message: "Two-step verification is already enabled.", description: "TOTP enrolment while a confirmed secret exists; disable it first." },
  OVATION_ERR_IDENTITY_TOTP_NOT_ENABLED: { status: 409, message: "Two-step verification is not enabled.", description: "TOTP confirm, disable or new recovery codes without an enrolment." },
  OVATION_ERR_IDENTITY_TOTP_CODE_INVALID: { status: 422, message: "The authenticator code is invalid.", description: "A wrong TOTP or recovery code." },
  OVATION_ERR_IDENTITY_WEBAUTHN_FAILED: { status: 422, message: "The security key response could not be verified.", description: "A WebAuthn registration response failed verification, or no challenge was pending." },
  OVATION_ERR_IDENTITY_PLATFORM_UNKNOWN: { status: 404, message: "This platform is not configured for sign-in.", description: "Platform login for a platform without OAuth settings." },
  OVATION_ERR_IDENTITY_PLATFORM_FAILED: { status: 502, message: "The platform sign-in failed.", description: "The platform refused the code or answered with something unreadable." },
  OVATION_ERR_IDENTITY_MAIL_FAILED: { status: 503, message: "The mail could not be sent; try again later.", description: "The SMTP server refused or could not be reached; nothing was kept of the code or link." },
  OVATION_ERR_IDENTITY_BAD_REQUEST: { status: 400, message: "The request could not be read.", description: "Malformed JSON, an unsupported content type or a body that is too large." },
  OVATION_ERR_IDENTITY_INTERNAL: { status: 500, message: "Server Error", description: "An unexpected failure; details are in the server log, never in the response." },
  OVATION_ERR_IDENTITY_STORE_CORRUPT: { status: 500, message: "The identity data file cannot be read.", description: "identity.json is not valid JSON or not an identity store; it is left untouched." },
  OVATION_ERR_IDENTITY_COUNTERS_UNAVAILABLE: { status: 503, message: "Too many attempts cannot be counted right now; try again shortly.", description: "The shared failure counters (Redis, with OVATION_REDIS_URL) cannot be reached: sign-in with a password, verification codes, password-reset and email-change mails wait until they can be counted again." },
  OVATION_ERR_IDENTITY_REMOTE_UNAVAILABLE: { status: 503, message: "The identity service cannot be reached.", description: "EAT check over HTTP when OVATION_ID_URL points to another host that does not answer." },
} as const satisfies Record<string, ErrorCodeEntry>;

/** A code of the identity registry. */
export type IdentityErrorCode = keyof typeof IDENTITY_ERROR_CODES;

/** An identity error that maps to an HTTP answer. */
export class IdentityError extends httpErrorClassFor("IdentityError", IDENTITY_ERROR_CODES) {}

/** A 422 naming one field, worded like Laravel's validator. */
export function identityFieldError(field: string, message: string): IdentityError {
  return new IdentityError("OVATION_ERR_IDENTITY_VALIDATION", { message, errors: { [field]: [message] } });
}
