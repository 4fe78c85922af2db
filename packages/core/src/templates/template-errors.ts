import { OvationError } from "../errors.js";

/** A template that does not compile; `line` and `column` are 1-based positions in the source. */
export class TemplateSyntaxError extends OvationError {
  override readonly name = "TemplateSyntaxError";
  readonly line: number;
  readonly column: number;

  constructor(message: string, line: number, column: number, options: { cause?: unknown } = {}) {
    super("OVATION_ERR_TEMPLATE_SYNTAX", `Template syntax error at line ${line}, column ${column}: ${message}`, {
      ...options,
      details: { line, column, reason: message },
    });
    this.line = line;
    this.column = column;
  }
}

/** Why a render failed. */
export type TemplateFailure =
  /** The template itself raised an error (calling something that is not a function, a bad filter argument...). */
  | "runtime"
  /** The render ran longer than the time limit. */
  | "timeout"
  /** The render used more memory than the limit. */
  | "memory"
  /** A template function (proxy_pass, json, db...) refused or failed; `cause` holds its error. */
  | "function"
  /** The render called template functions more often than allowed. */
  | "function_limit"
  /** The sandbox process died while the render was in flight (it is restarted for later renders). */
  | "crashed"
  /** The sandbox was closed. */
  | "closed";

const CODES: Readonly<Record<TemplateFailure, string>> = {
  runtime: "OVATION_ERR_TEMPLATE_RUNTIME",
  timeout: "OVATION_ERR_TEMPLATE_TIMEOUT",
  memory: "OVATION_ERR_TEMPLATE_MEMORY",
  function: "OVATION_ERR_TEMPLATE_FUNCTION",
  function_limit: "OVATION_ERR_TEMPLATE_FUNCTION_LIMIT",
  crashed: "OVATION_ERR_TEMPLATE_SANDBOX_CRASHED",
  closed: "OVATION_ERR_TEMPLATE_SANDBOX_CLOSED",
};

/** A render that did not produce output; `reason` says why, `code` is `OVATION_ERR_TEMPLATE_<REASON>`. */
export class TemplateRenderError extends OvationError {
  override readonly name = "TemplateRenderError";
  readonly reason: TemplateFailure;

  constructor(
    reason: TemplateFailure,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(CODES[reason], message, { ...options, details: { reason, ...(options.details ?? {}) } });
    this.reason = reason;
  }
}

/** Every error code of the templates area, with its meaning (documented in docs/templates.md). */
export const TEMPLATE_ERROR_CODES: Readonly<Record<string, string>> = {
  OVATION_ERR_TEMPLATE_SYNTAX: "the template does not compile (line and column given)",
  ...Object.fromEntries(Object.entries(CODES).map(([reason, code]) => [code, `render failed: ${reason}`])),
};
