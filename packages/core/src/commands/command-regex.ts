import { RE2JS } from "re2js";
import { InsertionCache } from "../templates/insertion-cache.js";
import { COMMAND_ERROR_CODES, CommandError } from "./command-error.js";

/** Longest `command_regex` accepted. */
export const COMMAND_REGEX_MAX_LENGTH = 200;

/**
 * Bounds of the chat path's patterns (`command_regex` and auto-moderation's `bad_words.patterns`),
 * checked when they are saved; documented in docs/commands.md and docs/security.md. RE2 matching
 * is linear in the message, but its cost per character grows with the compiled program: a
 * 20-character pattern such as `(?i)(?:\w+\s?){1,999}!` compiles to about 5,000 instructions and
 * takes over 100 ms on one 500-character line.
 */
export const CHAT_PATTERN_LIMITS = {
  /** Largest count of a counted repetition (`x{n}`, `x{n,m}`), checked before compiling. */
  repeatCount: 100,
  /** Largest compiled program of one pattern (RE2's "program size", about one instruction per step). */
  programSize: 500,
  /** Most commands of one channel with a `command_regex`. */
  regexCommands: 20,
  /** Largest sum of the program sizes of one channel's `command_regex` patterns. */
  commandProgramTotal: 4_000,
  /** Largest sum of the program sizes of one channel's moderation patterns. */
  moderationProgramTotal: 4_000,
} as const;

/** Patterns compiled lately, by source: saving, reloading and dry runs compile each pattern once. */
const compiled = new InsertionCache<RE2JS>(2_000);

/** Counted repetitions `{n}`, `{n,}`, `{n,m}` not escaped by a backslash (a rough scan, before compiling). */
const REPEAT = /(\\*)\{(\d+)(?:,(\d*))?\}/g;

function tooManyRepeats(source: string): number | null {
  for (const match of source.matchAll(REPEAT)) {
    if ((match[1] as string).length % 2 === 1) continue;
    const counts = [match[2], match[3]].filter((n): n is string => n !== undefined && n !== "").map(Number);
    const most = Math.max(...counts);
    if (most > CHAT_PATTERN_LIMITS.repeatCount) return most;
  }
  return null;
}

/**
 * A `command_regex` compiled with RE2JS (a pure-JavaScript port of RE2): matching time is linear in
 * the input, so a catastrophic pattern such as `(a+)+$` cannot hang the bot. RE2 syntax has no
 * backreferences and no lookahead; a pattern using them is refused when the command is saved, and
 * so is a pattern whose compiled program passes {@link CHAT_PATTERN_LIMITS}.
 */
export class CommandRegex {
  readonly source: string;
  /** The compiled program's size (RE2's rough measure of a pattern's cost per character). */
  readonly programSize: number;
  readonly #pattern: RE2JS;

  private constructor(source: string, pattern: RE2JS) {
    this.source = source;
    this.#pattern = pattern;
    this.programSize = pattern.programSize();
  }

  /** Compiles `source`; throws `CommandError` (`OVATION_ERR_COMMANDS_INVALID_REGEX`) saying why it is refused. */
  static compile(source: string): CommandRegex {
    if (source.length > COMMAND_REGEX_MAX_LENGTH) {
      throw new CommandError(COMMAND_ERROR_CODES.invalidRegex, `command_regex is longer than ${COMMAND_REGEX_MAX_LENGTH} characters`);
    }
    const repeats = tooManyRepeats(source);
    if (repeats !== null) {
      throw new CommandError(
        COMMAND_ERROR_CODES.invalidRegex,
        `command_regex repeats ${repeats} times; the limit is ${CHAT_PATTERN_LIMITS.repeatCount} (repeatCount)`,
      );
    }
    let pattern = compiled.get(source);
    if (pattern === undefined) {
      try {
        pattern = RE2JS.compile(source);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new CommandError(COMMAND_ERROR_CODES.invalidRegex, `command_regex is not a valid RE2 pattern: ${reason}`, { cause: error });
      }
    }
    const regex = new CommandRegex(source, pattern);
    if (regex.programSize > CHAT_PATTERN_LIMITS.programSize) {
      throw new CommandError(
        COMMAND_ERROR_CODES.invalidRegex,
        `command_regex compiles to ${regex.programSize} instructions; the limit is ${CHAT_PATTERN_LIMITS.programSize} (programSize): use fewer or smaller repetitions`,
      );
    }
    compiled.set(source, pattern);
    return regex;
  }

  /** True when the pattern matches anywhere in `input` (unanchored, like `RegExp.prototype.test`). */
  test(input: string): boolean {
    return this.#pattern.test(input);
  }
}

/**
 * What is wrong with a channel's set of patterns as a whole, or null: more than `maxCount`
 * patterns, or program sizes adding up past `maxTotal`. `what` names them in the message,
 * `countLimit` and `totalLimit` name the limits.
 */
export function patternSetProblem(
  what: string,
  patterns: readonly CommandRegex[],
  limits: { maxCount: number; countLimit: string; maxTotal: number; totalLimit: string },
): string | null {
  if (patterns.length > limits.maxCount) return `${patterns.length} ${what}; the limit is ${limits.maxCount} (${limits.countLimit})`;
  const total = patterns.reduce((sum, pattern) => sum + pattern.programSize, 0);
  if (total > limits.maxTotal) {
    return `the ${what} compile to ${total} instructions together; the limit is ${limits.maxTotal} (${limits.totalLimit})`;
  }
  return null;
}
