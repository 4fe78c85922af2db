import type { z } from "zod";
import { OvationError } from "./errors.js";

type Issue = z.core.$ZodIssue;

/** Field errors in the reference's Laravel shape: `{ "path.to.field": ["message naming the rule"] }`. */
export type FieldErrors = Record<string, string[]>;

/** Key used for a problem with the whole input rather than one field. */
export const ROOT_FIELD = "(root)";

function fieldName(path: readonly PropertyKey[]): string {
  return path.length === 0 ? ROOT_FIELD : path.map((part) => String(part)).join(".");
}

function sizeWord(origin: string, n: number | bigint): string {
  switch (origin) {
    case "string":
      return `${n} characters`;
    case "array":
    case "set":
      return `${n} items`;
    case "object":
    case "record":
      return `${n} keys`;
    default:
      return String(n);
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isNaN(value)) return "NaN";
  return typeof value;
}

function add(errors: FieldErrors, path: readonly PropertyKey[], message: string): void {
  const key = fieldName(path);
  const list = (errors[key] ??= []);
  if (!list.includes(message)) list.push(message);
}

function closestBranch(issue: Extract<Issue, { code: "invalid_union" }>): Issue[] | undefined {
  // Report the branch the input came closest to (fewest problems), not every branch.
  const branches = issue.errors.filter((branch) => branch.length > 0);
  if (branches.length === 0) return undefined;
  // A branch that failed at its root on type or literal value is one the input never tried to be.
  const typeOnly = (branch: Issue[]): boolean =>
    branch.every((i) => i.path.length === 0 && (i.code === "invalid_type" || i.code === "invalid_value"));
  let candidates = branches.filter((b) => !typeOnly(b));
  // Right type, wrong value (a string that is not an allowed name): that branch says what is allowed.
  if (candidates.length === 0) candidates = branches.filter((b) => b.some((i) => i.code === "invalid_value"));
  if (candidates.length === 0) return undefined;
  return candidates.reduce((best, branch) => (branch.length < best.length ? branch : best));
}

function collect(errors: FieldErrors, issues: readonly Issue[], base: readonly PropertyKey[]): void {
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    const field = fieldName(path);
    switch (issue.code) {
      case "invalid_type": {
        // zod leaves `input` out of issues unless asked (reportInput); its message names what came.
        const received = "input" in issue ? describe(issue.input) : /received (\w+)/.exec(issue.message)?.[1];
        if (received === "undefined") add(errors, path, `The ${field} field is required (rule: required).`);
        else if (issue.expected === "int") add(errors, path, `The ${field} field must be an integer (rule: integer).`);
        else add(errors, path, `The ${field} field must be of type ${issue.expected}${received ? `, not ${received}` : ""} (rule: ${issue.expected}).`);
        break;
      }
      case "too_small": {
        const bound = issue.inclusive === false ? "greater than" : "at least";
        const what = sizeWord(issue.origin, issue.minimum);
        const rule = issue.origin === "string" && issue.minimum === 1 ? "filled" : "min";
        add(errors, path, `The ${field} field must be ${bound} ${what} (rule: ${rule}).`);
        break;
      }
      case "too_big": {
        const bound = issue.inclusive === false ? "less than" : "at most";
        add(errors, path, `The ${field} field must be ${bound} ${sizeWord(issue.origin, issue.maximum)} (rule: max).`);
        break;
      }
      case "invalid_format":
        add(errors, path, `The ${field} field ${issue.message} (rule: ${issue.format === "regex" ? "format" : issue.format}).`);
        break;
      case "not_multiple_of":
        add(errors, path, `The ${field} field must be a multiple of ${String(issue.divisor)} (rule: multiple_of).`);
        break;
      case "unrecognized_keys":
        for (const key of issue.keys) {
          add(errors, [...path, key], `The ${fieldName([...path, key])} field is not allowed here (rule: unknown_field).`);
        }
        break;
      case "invalid_union": {
        const best = closestBranch(issue);
        if (best) collect(errors, best, path);
        else add(errors, path, `The ${field} field does not match any allowed form (rule: one_of).`);
        break;
      }
      case "invalid_key":
        add(errors, path, `The ${field} field has an invalid key (rule: key).`);
        collect(errors, issue.issues, path);
        break;
      case "invalid_element":
        collect(errors, issue.issues, [...path, String(issue.key)]);
        break;
      case "invalid_value": {
        const single = issue.values.length === 1;
        const allowed = issue.values.map((v) => JSON.stringify(v)).join(", ");
        const custom = issue.message && !issue.message.startsWith("Invalid") ? issue.message : undefined;
        add(errors, path, `The ${field} field ${custom ?? (single ? `must be ${allowed}` : `must be one of ${allowed}`)} (rule: in).`);
        break;
      }
      case "custom": {
        const rule = typeof issue.params?.["rule"] === "string" ? issue.params["rule"] : "custom";
        add(errors, path, `The ${field} field is invalid: ${issue.message} (rule: ${rule}).`);
        break;
      }
    }
  }
}

/**
 * Turns a zod error into Laravel-style field errors: one key per dotted path
 * (`variations.3.conditions.and.0`), each message naming the field and the rule broken
 * (`The title field must be at most 500 characters (rule: max).`). For a union, the errors of the
 * branch the input came closest to are reported. The server uses it for 422 bodies.
 */
export function fieldErrorsFromZod(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  collect(errors, error.issues, []);
  return errors;
}

/** The top-level `message` of a Laravel 422 body: the first error plus how many more. */
export function fieldErrorsMessage(errors: FieldErrors): string {
  const all = Object.values(errors).flat();
  const first = all[0] ?? "The given data was invalid.";
  const more = all.length - 1;
  return more > 0 ? `${first} (and ${more} more error${more === 1 ? "" : "s"})` : first;
}

/** Input that failed a zod schema; `errors` holds the Laravel-style field errors. */
export class ValidationError extends OvationError {
  override readonly name: string = "ValidationError";
  readonly errors: FieldErrors;

  constructor(errors: FieldErrors, options: { code?: string; cause?: unknown } = {}) {
    super(options.code ?? "OVATION_ERR_VALIDATION_FAILED", fieldErrorsMessage(errors), {
      cause: options.cause,
      details: { errors },
    });
    this.errors = errors;
  }
}

/**
 * Parses `input` with `schema`, returning the parsed value or throwing a {@link ValidationError}
 * (with `code`, default `OVATION_ERR_VALIDATION_FAILED`) that lists every problem. Never returns a
 * half-parsed value.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, code?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(fieldErrorsFromZod(result.error), { code, cause: result.error });
}
