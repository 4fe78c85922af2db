/** Field errors of a Laravel-style 422 (`errors`: field path -> messages), from any error that carries them. */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;

/**
 * The `errors` map of a validation error (the client's typed exception, or any error with an
 * `errors` object of string arrays); `{}` for other errors.
 */
export function fieldErrorsOf(error: unknown): FieldErrors {
  if (error === null || typeof error !== "object") return {};
  const errors = (error as { errors?: unknown }).errors ?? (error as { body?: { errors?: unknown } }).body?.errors;
  if (errors === null || typeof errors !== "object") return {};
  const out: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    if (Array.isArray(value)) out[key] = value.filter((m): m is string => typeof m === "string");
  }
  return out;
}

/** The errors under `prefix` (`default.` -> `title` for `default.title`), for a form that edits part of a body. */
export function errorsUnder(errors: FieldErrors, prefix: string): FieldErrors {
  if (prefix === "") return errors;
  const out: Record<string, readonly string[]> = {};
  for (const [key, value] of Object.entries(errors)) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out;
}

/** A sentence for any error: the server's message when it has one. */
export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (error !== null && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") return (error as { message: string }).message;
  return String(error);
}
