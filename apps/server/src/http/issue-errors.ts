import { BotModuleError, CommandError } from "@ovation/core";
import { ApiError } from "../errors.js";

/**
 * Turns a core validation error (a `CommandError` or `BotModuleError` whose `details.issues` are
 * `field: rule` lines) into a Laravel-style 422 naming each field; `fallbackField` takes issues
 * without a field. Other errors are rethrown unchanged.
 */
export function issuesToApiError(error: unknown, fallbackField: string): never {
  if (error instanceof CommandError || error instanceof BotModuleError) {
    const issues = Array.isArray(error.details["issues"]) ? (error.details["issues"] as string[]) : [error.message];
    const errors: Record<string, string[]> = {};
    for (const issue of issues) {
      const colon = issue.indexOf(":");
      const field = colon > 0 ? issue.slice(0, colon) : fallbackField;
      (errors[field] ??= []).push(`The ${field} field is invalid:${colon > 0 ? issue.slice(colon + 1) : ` ${issue}`}`);
    }
    throw new ApiError("OVATION_ERR_HTTP_VALIDATION", { message: Object.values(errors).flat()[0] ?? error.message, errors });
  }
  throw error;
}
