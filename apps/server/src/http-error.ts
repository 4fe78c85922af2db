import { OvationError, definedKeys } from "@ovation/core/contracts";

/** One entry of an error-code registry: HTTP status, default message and what it means. */
export interface ErrorCodeEntry {
  readonly status: number;
  readonly message: string;
  readonly description: string;
}

/** Laravel-style field errors: field path to messages. */
export type FieldErrors = Record<string, string[]>;

/** What an error adds to its registry entry: a message, field errors (422), further body fields. */
export interface HttpErrorOptions {
  message?: string;
  errors?: FieldErrors;
  extra?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * An error that maps to an HTTP answer `{message, code, errors?, ...extra}` with the status of its
 * registry entry. The host and the identity module each keep their own registry (the identity module
 * can run on its own host) and subclass this once.
 */
export class RegisteredHttpError extends OvationError {
  override readonly name: string = "RegisteredHttpError";
  readonly status: number;
  readonly errors: FieldErrors | undefined;
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(code: string, entry: ErrorCodeEntry, options: HttpErrorOptions = {}) {
    super(code, options.message ?? entry.message, { cause: options.cause, details: options.extra ?? {} });
    this.status = entry.status;
    this.errors = options.errors;
    this.extra = Object.freeze({ ...(options.extra ?? {}) });
  }

  /** The JSON body: `{message, code, errors?, ...extra}`. */
  toBody(): Record<string, unknown> {
    return { message: this.message, code: this.code, ...definedKeys({ errors: this.errors }), ...this.extra };
  }
}

/** A registry of HTTP error codes: each code with its status, default message and meaning. */
export type ErrorCodeRegistry = Readonly<Record<string, ErrorCodeEntry>>;

/** An error class declared with {@link httpErrorClassFor}: it takes only the codes of its registry. */
export interface RegisteredHttpErrorClass<Registry extends ErrorCodeRegistry> {
  new (code: keyof Registry & string, options?: HttpErrorOptions): RegisteredHttpError & { readonly code: keyof Registry & string };
  /** The registry the class was declared from. */
  readonly codes: Registry;
}

/**
 * Declares the error class of a registry in one line, as core's `errorClassFor` does for a code
 * table: `export class ApiError extends httpErrorClassFor("ApiError", ERROR_CODES) {}`. The class
 * sets `name`, accepts only the registry's codes (the compiler checks), takes the status and
 * default message of the code's entry, and carries the registry as `ApiError.codes`.
 */
export function httpErrorClassFor<const Registry extends ErrorCodeRegistry>(name: string, codes: Registry): RegisteredHttpErrorClass<Registry> {
  return class extends RegisteredHttpError {
    static readonly codes = codes;
    override readonly name: string = name;
    declare readonly code: keyof Registry & string;

    constructor(code: keyof Registry & string, options: HttpErrorOptions = {}) {
      const entry = codes[code];
      if (entry === undefined) throw new TypeError(`${name}: no such code in its registry: ${code}`);
      super(code, entry, options);
    }
  };
}
