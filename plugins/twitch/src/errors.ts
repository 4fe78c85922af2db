import { errorClassFor } from "@ovation/core/contracts";
import type { ErrorCodeOf } from "@ovation/core/contracts";

/** Stable codes of the errors the Twitch plugin raises. */
export const TWITCH_ERROR_CODES = {
  /** Plugin options fail their schema. */
  config: "OVATION_ERR_TWITCH_CONFIG",
  /** Twitch refused the token, and it could not be refreshed. */
  unauthorized: "OVATION_ERR_TWITCH_UNAUTHORIZED",
  /** A Helix call failed (status and Twitch's message in the error). */
  helix: "OVATION_ERR_TWITCH_HELIX",
  /** The action needs credentials the plugin was not given (anonymous read-only mode). */
  readOnly: "OVATION_ERR_TWITCH_READ_ONLY",
  /** Chat (IRC) is not connected or refused the message. */
  chat: "OVATION_ERR_TWITCH_CHAT",
} as const;

/** A Twitch plugin error code. */
export type TwitchErrorCode = ErrorCodeOf<typeof TWITCH_ERROR_CODES>;

/** An error of the Twitch plugin; `details.status` carries the HTTP status of a failed Helix call. */
export class TwitchError extends errorClassFor("TwitchError", TWITCH_ERROR_CODES) {}
