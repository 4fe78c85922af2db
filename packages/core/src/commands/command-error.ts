import { OvationError } from "../errors.js";

/** Codes of the errors the command runtime throws. */
export const COMMAND_ERROR_CODES = {
  /** A command record failed validation (details.issues lists each path and rule). */
  invalidCommand: "OVATION_ERR_COMMANDS_INVALID_COMMAND",
  /** A chat event failed validation (details.issues lists each path and rule). */
  invalidEvent: "OVATION_ERR_COMMANDS_INVALID_EVENT",
  /** A `command_regex` is not valid RE2 syntax or is too long. */
  invalidRegex: "OVATION_ERR_COMMANDS_INVALID_REGEX",
  /** A response template does not compile (details carry line and column), or no renderer is set. */
  invalidTemplate: "OVATION_ERR_COMMANDS_INVALID_TEMPLATE",
  /** A template function was called with bad arguments or over its per-render budget. */
  templateFunction: "OVATION_ERR_COMMANDS_TEMPLATE_FUNCTION",
} as const;

/** One of {@link COMMAND_ERROR_CODES}. */
export type CommandErrorCode = (typeof COMMAND_ERROR_CODES)[keyof typeof COMMAND_ERROR_CODES];

/** An error of the command runtime: bad command records, bad events, bad template function calls. */
export class CommandError extends OvationError {
  override readonly name = "CommandError";
  declare readonly code: CommandErrorCode;

  constructor(code: CommandErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(code, message, options);
  }
}

/** Formats zod issues as `path: message` lines, for error messages that name what is wrong. */
export function formatIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string[] {
  return issues.map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)"}: ${issue.message}`);
}
