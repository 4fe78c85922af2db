import { OvationError } from "../../errors.js";
import { formatIssues } from "../command-error.js";

/** Codes of the errors the bot modules (timers, giveaways, moderation, system commands) throw. */
export const BOT_MODULE_ERROR_CODES = {
  /** A module configuration failed validation (details.issues lists each path and rule). */
  invalidConfig: "OVATION_ERR_BOT_MODULES_INVALID_CONFIG",
  /** A giveaway action that its state does not allow (enter a closed giveaway, draw with no entries...). */
  giveawayState: "OVATION_ERR_BOT_MODULES_GIVEAWAY_STATE",
} as const;

/** One of {@link BOT_MODULE_ERROR_CODES}. */
export type BotModuleErrorCode = (typeof BOT_MODULE_ERROR_CODES)[keyof typeof BOT_MODULE_ERROR_CODES];

/** An error of a bot module; `details.issues` holds `path: rule` lines for invalid configurations. */
export class BotModuleError extends OvationError {
  override readonly name = "BotModuleError";
  declare readonly code: BotModuleErrorCode;

  constructor(code: BotModuleErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(code, message, options);
  }
}

/** Parses `input` with `schema` or throws {@link BotModuleError} listing every problem. */
export function parseModuleConfig<T>(
  what: string,
  schema: { safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } } },
  input: unknown,
): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = formatIssues(parsed.error.issues);
  throw new BotModuleError(BOT_MODULE_ERROR_CODES.invalidConfig, `invalid ${what}: ${issues.join("; ")}`, { details: { issues } });
}
