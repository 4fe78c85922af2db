import { CommandError } from "../command-error.js";
import { BotRouteError } from "../runtime/bot-module.js";
import { BotModuleError } from "./module-error.js";

/** The code of a 422 that names each bad field: the same code the host answers failed validation with. */
export const VALIDATION_ERROR_CODE = "OVATION_ERR_HTTP_VALIDATION";

/** A module route's 422 naming fields: `errors` maps each field to its messages; the message is the first one. */
export function routeValidationError(errors: Readonly<Record<string, string[]>>): BotRouteError {
  return new BotRouteError(422, VALIDATION_ERROR_CODE, Object.values(errors).flat()[0] ?? "The given data was invalid.", errors);
}

/** Where a template failed to compile: the field holding it and the 1-based line and column. */
export interface TemplatePosition {
  field: string;
  line: number;
  column: number;
}

/** The position a core error carries in `details.line`/`details.column` (template syntax errors), or null. */
function positionOf(details: Readonly<Record<string, unknown>>, field: string): TemplatePosition | null {
  const { line, column } = details;
  if (typeof line !== "number") return null;
  return { field, line, column: typeof column === "number" ? column : 1 };
}

/**
 * Turns a core validation error (a `CommandError` or `BotModuleError` whose `details.issues` are
 * `field: rule` lines) into a module route's Laravel-style 422 naming each field; `fallbackField`
 * takes issues without a field. A template syntax error also answers `details: {field, line, column}`
 * (1-based) so an editor can point at the spot. Other errors are rethrown unchanged.
 */
export function fieldsRouteError(error: unknown, fallbackField: string): never {
  if (error instanceof CommandError || error instanceof BotModuleError) {
    const issues = Array.isArray(error.details["issues"]) ? (error.details["issues"] as string[]) : [error.message];
    const errors: Record<string, string[]> = {};
    for (const issue of issues) {
      const colon = issue.indexOf(":");
      const field = colon > 0 ? issue.slice(0, colon) : fallbackField;
      (errors[field] ??= []).push(`The ${field} field is invalid:${colon > 0 ? issue.slice(colon + 1) : ` ${issue}`}`);
    }
    const firstField = Object.keys(errors)[0] ?? fallbackField;
    const position = positionOf(error.details, firstField);
    throw new BotRouteError(422, VALIDATION_ERROR_CODE, Object.values(errors).flat()[0] ?? error.message, errors, position === null ? undefined : { ...position });
  }
  throw error;
}
