/**
 * Base class of every error the core throws on purpose. `code` is stable and machine-readable
 * (`OVATION_ERR_<AREA>_<WHAT>`); `details` carries structured context (a path, a limit...).
 */
export class OvationError extends Error {
  override readonly name: string = "OvationError";
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = Object.freeze({ ...(options.details ?? {}) });
  }
}
