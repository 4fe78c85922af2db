import type { FieldErrors } from "../errors.js";

/** One validation problem: where (path segments) and what. */
export interface ValidationIssue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
}

/**
 * Turns validation issues into Laravel's 422 shape: field (dot path) to messages, and a summary
 * message `"<first> (and N more errors)"`. `prefix` names the request part for path/query issues.
 */
export function toLaravelErrors(issues: readonly ValidationIssue[], prefix = ""): { message: string; errors: FieldErrors } {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join(".");
    const field = [prefix, path].filter((p) => p.length > 0).join(".") || "body";
    const message = `The ${field} field: ${issue.message}`;
    (errors[field] ??= []).push(message);
  }
  const all = Object.values(errors).flat();
  const first = all[0] ?? "The given data was invalid.";
  const more = all.length - 1;
  return { message: more > 0 ? `${first} (and ${more} more error${more > 1 ? "s" : ""})` : first, errors };
}
