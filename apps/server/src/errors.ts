import { BOT_ROUTE_ERROR_CODES, COMMANDS_ERROR_CODES, COUNTERS_ERROR_CODES, GIVEAWAYS_ERROR_CODES, GOAL_BARS_ERROR_CODES, TIMERS_ERROR_CODES } from "@ovation/core";
import { httpErrorClassFor } from "./http-error.js";
import type { ErrorCodeEntry } from "./http-error.js";

export type { ErrorCodeEntry, FieldErrors } from "./http-error.js";

/**
 * Every error code the server answers with (HTTP bodies, socket `error` events, CLI exits), with
 * the codes of the bot modules' routes spread in from @ovation/core (each declared once, beside its
 * routes). Each code is documented in apps/server/README.md; a test keeps both in step.
 */
export const ERROR_CODES = {
  OVATION_ERR_AUTH_UNAUTHENTICATED: { status: 401, message: "Unauthenticated.", description: "No bearer token, or a token that is unknown, expired or revoked." },
  OVATION_ERR_AUTH_MISSING_SCOPE: { status: 403, message: "This action is unauthorized.", description: "The token lacks a scope the endpoint needs; `missing_scopes` lists them." },
  OVATION_ERR_AUTH_TOO_MANY_FAILURES: { status: 429, message: "Too Many Attempts.", description: "Too many requests with a missing or invalid bearer token from this address in a minute (a tenth of OVATION_RATE_LIMIT_PER_MINUTE, at least 20); wait `Retry-After` seconds." },
  OVATION_ERR_AUTH_EAT_REQUIRED: { status: 401, message: "An elevated access token is required.", description: "A sensitive endpoint (the bot's signing secret) was called without the `Elevated-Access-Token` header; get one from the identity module (`POST /api/eat/request-verification`, then `/api/eat/verify-code`)." },
  OVATION_ERR_AUTH_EAT_INVALID: { status: 401, message: "The elevated access token is invalid or expired.", description: "The `Elevated-Access-Token` is unknown, expired, revoked or belongs to another user than the bearer token." },
  OVATION_ERR_AUTH_IDENTITY_UNAVAILABLE: { status: 503, message: "The identity service cannot be reached.", description: "OVATION_IDENTITY_MODE=remote and the identity host (OVATION_ID_URL) did not answer a token introspection or EAT check; nothing is let through." },
  OVATION_ERR_AUTH_NOT_YOUR_USER: { status: 403, message: "This action is unauthorized.", description: "`{user}` in the path is not the caller (use your id or `@me`) nor a channel the caller manages." },
  OVATION_ERR_AUTH_ROLE_FORBIDS: { status: 403, message: "This action is unauthorized.", description: "The caller manages the channel of `{user}`, but its role (editor or moderator) does not cover this endpoint; `role` and `missing_scopes` say why." },
  OVATION_ERR_AUTH_OWNER_ONLY: { status: 403, message: "This action is unauthorized.", description: "Only the channel's owner may call this endpoint (the bot's signing secret, a browser source's new access token); managers never may." },
  OVATION_ERR_MANAGERS_UNKNOWN_USER: { status: 422, message: "No such account.", description: "`POST /v1/managers` names no account (by id or name)." },
  OVATION_ERR_MANAGERS_SELF: { status: 422, message: "You cannot manage your own channel.", description: "`POST /v1/managers` names the caller." },
  OVATION_ERR_MANAGERS_NOT_FOUND: { status: 404, message: "No such manager.", description: "`DELETE /v1/managers/{user}` names an account that holds no role on the caller's channel." },
  OVATION_ERR_HTTP_VALIDATION: { status: 422, message: "The given data was invalid.", description: "The body, query or path failed validation; `errors` maps each field to its messages." },
  OVATION_ERR_HTTP_BAD_REQUEST: { status: 400, message: "The request could not be read.", description: "Malformed JSON or an unsupported request shape." },
  OVATION_ERR_HTTP_NOT_FOUND: { status: 404, message: "Not found.", description: "No such route." },
  OVATION_ERR_HTTP_BODY_TOO_LARGE: { status: 413, message: "The request body is too large.", description: "The body exceeds OVATION_BODY_LIMIT_BYTES (256 KiB by default)." },
  OVATION_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "Unsupported media type.", description: "Bodies must be application/json." },
  OVATION_ERR_HTTP_RATE_LIMITED: { status: 429, message: "Too Many Attempts.", description: "More requests than OVATION_RATE_LIMIT_PER_MINUTE in a minute; wait `Retry-After` seconds." },
  OVATION_ERR_HTTP_INTERNAL: { status: 500, message: "Server Error", description: "An unexpected failure; details are in the server log, never in the response." },
  OVATION_ERR_ALERTS_UNKNOWN_TEMPLATE: { status: 422, message: "The selected template is invalid.", description: "A stored template name the user does not have (no enabled type default in the active alert set)." },
  OVATION_ERR_ALERTS_NOTIFICATION_NOT_FOUND: { status: 404, message: "No such notification in the alert log.", description: "Replay of a notification id that is not (or no longer) in the user's alert log." },
  OVATION_ERR_ALERT_SETS_NOT_FOUND: { status: 404, message: "No such alert set.", description: "The alert set does not exist or belongs to another user." },
  OVATION_ERR_ALERT_SETS_ALREADY_MIGRATED: { status: 422, message: "The alert set already uses this engine.", description: "Migration target equals the set's engine; migration is one-way." },
  OVATION_ERR_MEDIA_UNSUPPORTED_TYPE: { status: 415, message: "This kind of file cannot be an alert image or sound.", description: "`POST /v1/media` takes PNG, JPEG, GIF or WebP images and MP3, Ogg, WAV or WebM sounds, named by Content-Type." },
  OVATION_ERR_MEDIA_CONTENT_MISMATCH: { status: 422, message: "The file is not what its Content-Type says.", description: "The uploaded bytes do not start like the file type the Content-Type names." },
  OVATION_ERR_MEDIA_QUOTA_FILES: { status: 422, message: "You have as many media files as you may keep.", description: "An upload past OVATION_MEDIA_QUOTA_FILES files per user (200 by default); the message names the limit." },
  OVATION_ERR_MEDIA_QUOTA_BYTES: { status: 413, message: "Your media would take more space than you may use.", description: "An upload past OVATION_MEDIA_QUOTA_BYTES bytes per user (256 MiB by default); the message names the limit and what is left." },
  OVATION_ERR_BROWSER_SOURCES_NOT_FOUND: { status: 404, message: "No such browser source.", description: "The browser source does not exist or belongs to another user." },
  OVATION_ERR_TTS_ENGINE_UNAVAILABLE: { status: 503, message: "The speech engine is not available.", description: "Read-aloud alerts: the embedded eSpeak NG is not installed (an optional dependency) or the OVATION_TTS_URL server cannot be reached." },
  OVATION_ERR_TTS_ENGINE_FAILED: { status: 502, message: "The speech engine failed.", description: "Read-aloud alerts: the engine or the speech server failed on this text." },
  OVATION_ERR_TTS_NOT_HELD: { status: 404, message: "No such held message.", description: "`POST /v1/tts/queue/{id}/approve` or `/skip` named a message that is not waiting for approval." },
  OVATION_ERR_BROWSER_SOURCES_INVALID_TOKEN: { status: 404, message: "This browser source address is not valid.", description: "A browser-source page or config was requested with an unknown or revoked access token." },
  ...COMMANDS_ERROR_CODES,
  ...COUNTERS_ERROR_CODES,
  ...TIMERS_ERROR_CODES,
  ...GIVEAWAYS_ERROR_CODES,
  ...GOAL_BARS_ERROR_CODES,
  ...BOT_ROUTE_ERROR_CODES,
  OVATION_ERR_ALERTS_DATA_TOO_LARGE: { status: 422, message: "The data field is too large.", description: "Alert `data` larger than 32 KiB of JSON (`USER_CAPS.alertDataBytes`)." },
  OVATION_ERR_REALTIME_UNAUTHENTICATED: { status: 401, message: "Unauthenticated.", description: "Socket handshake without a valid bearer token, browser-source token or session." },
  OVATION_ERR_REALTIME_ROOM_INVALID: { status: 422, message: "The room id is not valid.", description: "A `room` event whose argument is not `<uuid>.<platform>.<platform_user_id>[.chat]`." },
  OVATION_ERR_REALTIME_ROOM_FORBIDDEN: { status: 403, message: "You may not join this room.", description: "A socket asked to join another user's private room." },
  OVATION_ERR_REALTIME_PAYLOAD_INVALID: { status: 422, message: "The event's payload is not valid.", description: "A socket event (`room`, `ack`, the console's `line`...) whose arguments fail its schema; nothing else happens. The `event` field names the event." },
  OVATION_ERR_REALTIME_EVENT_UNKNOWN: { status: 404, message: "No such socket event.", description: "A socket event the namespace does not handle; it is dropped." },
  OVATION_ERR_REALTIME_HANDLER_FAILED: { status: 500, message: "Server Error", description: "The server failed while handling a socket event; details are in the server log. The socket and the server stay up." },
  OVATION_ERR_REALTIME_TOO_MANY_FAILURES: { status: 429, message: "Too Many Attempts.", description: "Too many failed socket handshakes (bad tokens) from this address, or with this credential, in a minute; `retry_after` gives the seconds to wait. A valid token still connects." },
  OVATION_ERR_REALTIME_MISSING_SCOPE: { status: 403, message: "This token lacks the scope this room needs.", description: "A bearer-token socket joined a private room without the scope its kind needs (docs/security.md \"Socket rooms and scopes\"); `missing_scopes` lists it." },
  OVATION_ERR_STORE_LOCKED: { status: 503, message: "The data directory is in use by another Ovation server.", description: "Two servers were started on one OVATION_DATA_DIR, or `ovation migrate-store` met a PostgreSQL database that servers are using (or a server met one a migration holds)." },
  OVATION_ERR_STORE_UNUSABLE: { status: 500, message: "The data directory cannot be used.", description: "OVATION_DATA_DIR is not a writable directory (or cannot be created)." },
  OVATION_ERR_STORE_CORRUPT: { status: 500, message: "The data file cannot be read.", description: "A stored document or alert log (or a legacy ovation.json) is not valid JSON or not an Ovation store; it is named and left untouched." },
  OVATION_ERR_STORE_TARGET_NOT_EMPTY: { status: 409, message: "The target store is not empty.", description: "`ovation migrate-store` into a database that already holds a store; pass --replace to overwrite it." },
  OVATION_ERR_STORE_IDS_UNAVAILABLE: { status: 503, message: "No id could be reserved; try again.", description: "Several nodes on one PostgreSQL database: this node used up the ids it had reserved before the database answered its request for more (a burst of creations while the database is slow or unreachable); nothing was created. Retry after a moment." },
  OVATION_ERR_STORE_VERIFY_FAILED: { status: 500, message: "The copied store differs from its source.", description: "`ovation migrate-store` read the copy back and its counts or checksums differ; the source is unchanged." },
  OVATION_ERR_REDIS_UNREACHABLE: { status: 503, message: "Redis cannot be reached.", description: "OVATION_REDIS_URL names a Redis server that does not answer at start (the message names it, without its password); the server does not start." },
  OVATION_ERR_CLI_USAGE: { status: 400, message: "Bad command line.", description: "Unknown subcommand, missing or bad option." },
  OVATION_ERR_CLI_USER_NOT_FOUND: { status: 404, message: "No such user.", description: "`ovation token create --user N` names no user." },
  OVATION_ERR_CLI_USER_EXISTS: { status: 422, message: "A user with this name already exists.", description: "`ovation user create` with a name (or email) already used." },
  OVATION_ERR_CLI_NOT_BUILT: { status: 500, message: "The server is not built yet.", description: "`bin/ovation.mjs` found no `dist/`: run `npm run build` (or `npm start`, which builds) first." },
  OVATION_ERR_CLI_LISTEN_FAILED: { status: 500, message: "The server cannot listen on HOST:PORT.", description: "`ovation start` found the port taken, privileged, or HOST not an address of this machine." },
  OVATION_ERR_CONFIG_INVALID: { status: 500, message: "Invalid configuration.", description: "An environment variable has a bad value; the message names it." },
} as const satisfies Record<string, ErrorCodeEntry>;

/** A code of the registry. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** An error of the host's registry, answered as `{message, code, errors?, ...extra}` with its status. */
export class ApiError extends httpErrorClassFor("ApiError", ERROR_CODES) {}

/** A 422 for one field, worded like Laravel's validator. */
export function fieldError(field: string, message: string, code: ErrorCode = "OVATION_ERR_HTTP_VALIDATION"): ApiError {
  return new ApiError(code, { message, errors: { [field]: [message] } });
}
