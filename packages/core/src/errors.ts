/** What an {@link OvationError} takes besides its code and message. */
export interface OvationErrorOptions {
  readonly cause?: unknown;
  readonly details?: Record<string, unknown>;
}

/**
 * Base class of every error the core throws on purpose. `code` is stable and machine-readable
 * (`OVATION_ERR_<AREA>_<WHAT>`); `details` carries structured context (a path, a limit...).
 */
export class OvationError extends Error {
  override readonly name: string = "OvationError";
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: OvationErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = Object.freeze({ ...(options.details ?? {}) });
  }
}

/** A table of error codes: a short key per error, its `OVATION_ERR_*` code as the value. */
export type ErrorCodeTable = Readonly<Record<string, string>>;

/** The codes of a table: `ErrorCodeOf<typeof KICK_ERROR_CODES>`. */
export type ErrorCodeOf<Table extends ErrorCodeTable> = Table[keyof Table];

/** An error class declared with {@link errorClassFor}: it takes only the codes of its table. */
export interface OvationErrorClass<Table extends ErrorCodeTable> {
  new (code: ErrorCodeOf<Table>, message: string, options?: OvationErrorOptions): OvationError & { readonly code: ErrorCodeOf<Table> };
  /** The code table the class was declared from. */
  readonly codes: Table;
}

/**
 * Declares a package's error class from its code table, in one line:
 * `export class KickError extends errorClassFor("KickError", KICK_ERROR_CODES) {}`.
 * The class sets `name`, accepts only the codes of the table (the compiler checks), keeps `cause` and
 * `details`, and carries the table as `KickError.codes`.
 */
export function errorClassFor<const Table extends ErrorCodeTable>(name: string, codes: Table): OvationErrorClass<Table> {
  return class extends OvationError {
    static readonly codes = codes;
    override readonly name: string = name;
    declare readonly code: ErrorCodeOf<Table>;

    constructor(code: ErrorCodeOf<Table>, message: string, options: OvationErrorOptions = {}) {
      super(code, message, options);
    }
  };
}
