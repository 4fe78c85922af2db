import { errorClassFor } from "@ovation/core/contracts";
import type { ErrorCodeOf } from "@ovation/core/contracts";

/** Stable codes of the errors the Kick plugin raises. */
export const KICK_ERROR_CODES = {
  /** Plugin settings fail their schema. */
  config: "OVATION_ERR_KICK_CONFIG",
  /** Kick refused the token and it could not be refreshed (revoked, expired, wrong client). */
  unauthorized: "OVATION_ERR_KICK_UNAUTHORIZED",
  /** A public API call failed (HTTP status and Kick's message in `details`). */
  api: "OVATION_ERR_KICK_API",
  /** Kick answered 429 more often than the plugin retries. */
  rateLimited: "OVATION_ERR_KICK_RATE_LIMITED",
  /** The send queue is full: the answer was refused, not silently dropped. */
  sendQueueFull: "OVATION_ERR_KICK_SEND_QUEUE_FULL",
  /** The plugin is not connected (or was disconnected before the answer went out). */
  offline: "OVATION_ERR_KICK_OFFLINE",
} as const;

/** A Kick plugin error code. */
export type KickErrorCode = ErrorCodeOf<typeof KICK_ERROR_CODES>;

/** An error of the Kick plugin; `details.status` carries a failed API call's HTTP status. */
export class KickError extends errorClassFor("KickError", KICK_ERROR_CODES) {}
