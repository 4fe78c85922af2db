import { OvationError } from "@ovation/core/contracts";

/** Stable codes of the errors the TikTok plugin raises. */
export const TIKTOK_ERROR_CODES = {
  /** Plugin settings fail their schema. */
  config: "OVATION_ERR_TIKTOK_CONFIG",
  /** An answer arrived after the plugin was disconnected: it could not be shown in `.chat`. */
  disconnected: "OVATION_ERR_TIKTOK_DISCONNECTED",
} as const;

/** A TikTok plugin error code. */
export type TikTokErrorCode = (typeof TIKTOK_ERROR_CODES)[keyof typeof TIKTOK_ERROR_CODES];

/** An error of the TikTok plugin. */
export class TikTokError extends OvationError {
  override readonly name: string = "TikTokError";

  constructor(code: TikTokErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(code, message, options);
  }
}
