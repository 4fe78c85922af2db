import { fieldErrorsOf, messageOf } from "../../ui/errors.js";
import type { FieldErrors } from "../../ui/errors.js";

/**
 * The errors to show for a failed call: the server's field errors, else the message under
 * `fallback` (`(root)` shows it above the form's buttons).
 */
export function formErrorsOf(error: unknown, fallback = "(root)"): FieldErrors {
  const fields = fieldErrorsOf(error);
  return Object.keys(fields).length > 0 ? fields : { [fallback]: [messageOf(error)] };
}
