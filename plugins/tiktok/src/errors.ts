import { errorClassFor } from "@ovation/core/contracts";
import type { ErrorCodeOf } from "@ovation/core/contracts";

/** Stable codes of the errors the TikTok plugin raises. */
export const TIKTOK_ERROR_CODES = {
  /** Plugin settings fail their schema. */
  config: "OVATION_ERR_TIKTOK_CONFIG",
  /** An answer arrived after the plugin was disconnected: it could not be shown in `.chat`. */
  disconnected: "OVATION_ERR_TIKTOK_DISCONNECTED",
} as const;

/** A TikTok plugin error code. */
export type TikTokErrorCode = ErrorCodeOf<typeof TIKTOK_ERROR_CODES>;

/** An error of the TikTok plugin. */
export class TikTokError extends errorClassFor("TikTokError", TIKTOK_ERROR_CODES) {}
