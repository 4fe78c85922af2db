import type { z } from "zod";
import { IdentityError } from "../identity-errors.js";

/** Parses `input` with `schema`; a 422 with Laravel-style `errors` (field path to messages) otherwise. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "body";
    (errors[field] ??= []).push(`The ${field} field ${issue.message}.`);
  }
  const first = Object.values(errors)[0]?.[0] ?? "The given data was invalid.";
  const count = Object.values(errors).reduce((n, list) => n + list.length, 0);
  const message = count > 1 ? `${first} (and ${count - 1} more error${count > 2 ? "s" : ""})` : first;
  throw new IdentityError("OVATION_ERR_IDENTITY_VALIDATION", { message, errors });
}
