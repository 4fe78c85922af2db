import { RE2JS } from "re2js";
import { COMMAND_ERROR_CODES, CommandError } from "./command-error.js";

/** Longest `command_regex` accepted. */
export const COMMAND_REGEX_MAX_LENGTH = 200;

/**
 * A `command_regex` compiled with RE2JS (a pure-JavaScript port of RE2): matching time is linear in
 * the input, so a catastrophic pattern such as `(a+)+$` cannot hang the bot. RE2 syntax has no
 * backreferences and no lookahead; a pattern using them is refused when the command is saved.
 */
export class CommandRegex {
  readonly source: string;
  readonly #pattern: RE2JS;

  private constructor(source: string, pattern: RE2JS) {
    this.source = source;
    this.#pattern = pattern;
  }

  /** Compiles `source`; throws `CommandError` (`OVATION_ERR_COMMANDS_INVALID_REGEX`) saying why it is refused. */
  static compile(source: string): CommandRegex {
    if (source.length > COMMAND_REGEX_MAX_LENGTH) {
      throw new CommandError(COMMAND_ERROR_CODES.invalidRegex, `command_regex is longer than ${COMMAND_REGEX_MAX_LENGTH} characters`);
    }
    try {
      return new CommandRegex(source, RE2JS.compile(source));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new CommandError(COMMAND_ERROR_CODES.invalidRegex, `command_regex is not a valid RE2 pattern: ${reason}`, { cause: error });
    }
  }

  /** True when the pattern matches anywhere in `input` (unanchored, like `RegExp.prototype.test`). */
  test(input: string): boolean {
    return this.#pattern.test(input);
  }
}
