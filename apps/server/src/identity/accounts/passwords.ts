import { hash, verify } from "@node-rs/argon2";
import type { Algorithm } from "@node-rs/argon2";

/** Argon2id (the enum is `const`, which isolated modules cannot read: its value is 2). */
const ARGON2ID = 2 as Algorithm;

/** Password rules, documented in docs/identity.md. */
export const PASSWORD_RULES = Object.freeze({ minLength: 10, maxLength: 128 });

const COMMON_PASSWORDS = new Set([
  "1234567890",
  "12345678910",
  "0123456789",
  "qwertyuiop",
  "password123",
  "password1234",
  "passwordpassword",
  "iloveyou123",
  "letmein1234",
  "qwerty12345",
  "1q2w3e4r5t",
  "abcdefghij",
  "aaaaaaaaaa",
  "streaming123",
  "ovation123",
  "ovationovation",
]);

/**
 * The problems of a candidate password (empty when it is acceptable): 10 to 128 characters, not only
 * whitespace, not one repeated character, not a well-known password, not the account's name or email.
 */
export function passwordProblems(password: string, context: { name?: string | null; email?: string | null } = {}): string[] {
  const problems: string[] = [];
  const length = [...password].length;
  if (length < PASSWORD_RULES.minLength) problems.push(`The password must be at least ${PASSWORD_RULES.minLength} characters.`);
  if (length > PASSWORD_RULES.maxLength) problems.push(`The password must not be greater than ${PASSWORD_RULES.maxLength} characters.`);
  if (password.trim().length === 0 && length > 0) problems.push("The password must not be only whitespace.");
  if (length >= 2 && new Set(password).size === 1) problems.push("The password must not repeat one character.");
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) problems.push("The password is too common.");
  const name = context.name?.toLowerCase();
  const email = context.email?.toLowerCase();
  if ((name && lower === name) || (email && (lower === email || lower === email.split("@")[0]))) {
    problems.push("The password must not be your name or email address.");
  }
  return problems;
}

/** An argon2id PHC string of the password (19 MiB, 2 passes: OWASP's baseline). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

/** Whether `password` matches the stored argon2 hash; false for a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
