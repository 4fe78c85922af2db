import { z } from "zod";
import { parseScopes } from "../auth/scopes.js";
import { ApiError } from "../errors.js";
import type { Repositories } from "../store/repositories.js";
import type { UserRecord } from "../store/records.js";

/** Input of `ovation user create`. */
export const userCreateSchema = z.object({
  name: z
    .string({ error: "--name is required" })
    .trim()
    .min(1, "--name must not be empty")
    .max(64, "--name must be at most 64 characters")
    .regex(/^[\p{L}\p{N}_.-]+$/u, "--name may contain letters, digits, _ . and - only"),
  email: z.email({ error: "--email must be a valid email address" }).max(254).optional(),
});

/** Input of `ovation token create`. */
export const tokenCreateSchema = z.object({
  user: z.string({ error: "--user is required (a user name or id)" }).min(1, "--user must not be empty"),
  scopes: z.string().min(1, "--scopes must not be empty"),
  name: z.string().min(1).max(64).default("cli"),
});

/** The user as `ovation user create` prints it (no password hash). */
export function publicUser(user: UserRecord): Omit<UserRecord, "password_hash"> {
  const { password_hash: _hidden, ...rest } = user;
  return rest;
}

/** Creates a user; names and emails are unique. */
export function createUser(repos: Repositories, input: z.input<typeof userCreateSchema>): UserRecord {
  const parsed = userCreateSchema.parse(input);
  if (repos.users.findByName(parsed.name)) {
    throw new ApiError("OVATION_ERR_CLI_USER_EXISTS", { message: `A user named ${parsed.name} already exists.` });
  }
  if (parsed.email !== undefined && repos.users.findByEmail(parsed.email)) {
    throw new ApiError("OVATION_ERR_CLI_USER_EXISTS", { message: `A user with the email ${parsed.email} already exists.` });
  }
  return repos.users.create({ name: parsed.name, email: parsed.email ?? null });
}

/** The user named (or numbered) `nameOrId`, or null. */
export function findUser(repos: Repositories, nameOrId: string): UserRecord | null {
  return repos.users.findByName(nameOrId) ?? (/^\d+$/.test(nameOrId) ? repos.users.get(Number(nameOrId)) : null);
}

/** Input of `ovation user password` (the password is hashed by the CLI; only the hash travels). */
export const userPasswordSchema = z.object({
  user: z.string({ error: "--user is required (a user name or id)" }).min(1, "--user must not be empty"),
  email: z.email({ error: "--email must be a valid email address" }).max(254).optional(),
  password_hash: z.string().min(1),
});

/**
 * Gives a user a password (and, with `email`, a verified sign-in address): what the operator runs so
 * the quick-start user can sign in to the dashboard. A user needs an email address to sign in.
 */
export function setUserPassword(repos: Repositories, input: z.input<typeof userPasswordSchema>): UserRecord {
  const parsed = userPasswordSchema.parse(input);
  const user = findUser(repos, parsed.user);
  if (!user) throw new ApiError("OVATION_ERR_CLI_USER_NOT_FOUND", { message: `No user named ${parsed.user}.` });
  if (parsed.email !== undefined) {
    const other = repos.users.findByEmail(parsed.email);
    if (other && other.id !== user.id) throw new ApiError("OVATION_ERR_CLI_USER_EXISTS", { message: `A user with the email ${parsed.email} already exists.` });
  }
  if (parsed.email === undefined && user.email === null) throw new ApiError("OVATION_ERR_CLI_USAGE", { message: `${user.name} has no email address to sign in with: add --email.` });
  const changes = parsed.email === undefined ? { password_hash: parsed.password_hash } : { password_hash: parsed.password_hash, email: parsed.email, email_verified_at: new Date().toISOString() };
  const updated = repos.users.update(user.id, changes);
  if (!updated) throw new ApiError("OVATION_ERR_CLI_USER_NOT_FOUND", { message: `No user named ${parsed.user}.` });
  return updated;
}

/** Issues a personal access token for a user named (or numbered) `user`; returns the raw token. */
export function createToken(repos: Repositories, input: z.input<typeof tokenCreateSchema>): string {
  const parsed = tokenCreateSchema.parse(input);
  const user = findUser(repos, parsed.user);
  if (!user) throw new ApiError("OVATION_ERR_CLI_USER_NOT_FOUND", { message: `No user named ${parsed.user}.` });
  const { scopes, unknown } = parseScopes(parsed.scopes);
  if (unknown.length > 0) {
    throw new ApiError("OVATION_ERR_CLI_USAGE", { message: `Unknown scope${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}.` });
  }
  if (scopes.length === 0) throw new ApiError("OVATION_ERR_CLI_USAGE", { message: "--scopes must name at least one scope." });
  return repos.tokens.create({ user_id: user.id, name: parsed.name, scopes }).token;
}
