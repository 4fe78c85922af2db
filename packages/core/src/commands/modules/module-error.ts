import { OvationError } from "../../errors.js";
import { formatIssues } from "../command-error.js";
import { BotRouteError } from "../runtime/bot-module.js";

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

/**
 * The code of the host's 422 for fields that fail validation (`errors` names each field): module
 * routes answer it for bad input their schemas cannot see (a limit, settings that do not compile).
 */
export const ROUTE_VALIDATION_CODE = "OVATION_ERR_HTTP_VALIDATION";

/** A module route's 422 naming fields: `errors` maps each field to its messages; the message is the first one. */
export function routeValidationError(errors: Readonly<Record<string, string[]>>): BotRouteError {
  return new BotRouteError(422, ROUTE_VALIDATION_CODE, Object.values(errors).flat()[0] ?? "The given data was invalid.", errors);
}

/**
 * Rethrows a {@link BotModuleError} whose `details.issues` are `field: rule` lines as the host's 422
 * naming each field, worded like its validator ("The links.max field is invalid: ..."); issues
 * without a field go to `fallbackField`. Other errors are rethrown unchanged.
 */
export function issuesToRouteError(error: unknown, fallbackField: string): never {
  if (!(error instanceof BotModuleError)) throw error;
  const issues = Array.isArray(error.details["issues"]) ? (error.details["issues"] as string[]) : [error.message];
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const colon = issue.indexOf(":");
    const field = colon > 0 ? issue.slice(0, colon) : fallbackField;
    (errors[field] ??= []).push(`The ${field} field is invalid:${colon > 0 ? issue.slice(colon + 1) : ` ${issue}`}`);
  }
  const message = Object.values(errors).flat()[0] ?? error.message;
  throw new BotRouteError(422, ROUTE_VALIDATION_CODE, message, errors);
}
