import { errorClassFor } from "@ovation/core/contracts";
import type { ErrorCodeOf } from "@ovation/core/contracts";

/** Stable codes of the errors the YouTube plugin raises. */
export const YOUTUBE_ERROR_CODES = {
  /** Plugin settings fail their schema. */
  config: "OVATION_ERR_YOUTUBE_CONFIG",
  /** Google refused the token and it could not be refreshed (revoked, expired, wrong client). */
  unauthorized: "OVATION_ERR_YOUTUBE_UNAUTHORIZED",
  /** A Data API call failed (HTTP status and Google's reason in `details`). */
  api: "OVATION_ERR_YOUTUBE_API",
  /** The daily quota (the configured budget or Google's own) is used up. */
  quota: "OVATION_ERR_YOUTUBE_QUOTA",
  /** No live chat to send to (nothing is live). */
  offline: "OVATION_ERR_YOUTUBE_OFFLINE",
  /** The send queue is full: the answer was refused, not silently dropped. */
  sendQueueFull: "OVATION_ERR_YOUTUBE_SEND_QUEUE_FULL",
} as const;

/** A YouTube plugin error code. */
export type YouTubeErrorCode = ErrorCodeOf<typeof YOUTUBE_ERROR_CODES>;

/** An error of the YouTube plugin; `details.status` and `details.reason` carry a failed API call's HTTP status and Google reason. */
export class YouTubeError extends errorClassFor("YouTubeError", YOUTUBE_ERROR_CODES) {}
