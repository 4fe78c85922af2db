import type { IdentityContext } from "../context.js";
import { IdentityError } from "../identity-errors.js";
import { randomSecret, sha256Hex } from "../../crypto/secrets.js";
import { SlidingWindowLimit, inMemoryTimeLogs, retryAfterSeconds } from "../failure-backoff.js";
import type { TimeLogFactory } from "../failure-backoff.js";
import { hashPassword, passwordProblems } from "./passwords.js";
import { signOutEverywhere } from "./sign-out.js";

/** Reset links live one hour; at most 3 mails per address and 10 per source per hour. */
export const PASSWORD_RESET_RULES = Object.freeze({ lifetimeMs: 60 * 60 * 1000, perAddress: 3, perSource: 10, windowMs: 60 * 60 * 1000 });

/** The rate limits of "Forgot your password?" (per address and per source). */
export class PasswordResetLimits {
  readonly perAddress: SlidingWindowLimit;
  readonly perSource: SlidingWindowLimit;

  /** `logs`: where events are kept (default this process's memory; Redis when several nodes share it). */
  constructor(now: () => number, logs: TimeLogFactory = inMemoryTimeLogs) {
    this.perAddress = new SlidingWindowLimit(PASSWORD_RESET_RULES.perAddress, PASSWORD_RESET_RULES.windowMs, now, logs("password-reset:address", PASSWORD_RESET_RULES.windowMs, now));
    this.perSource = new SlidingWindowLimit(PASSWORD_RESET_RULES.perSource, PASSWORD_RESET_RULES.windowMs, now, logs("password-reset:source", PASSWORD_RESET_RULES.windowMs, now));
  }
}

/**
 * Mails a reset link when an account with a password uses the address; answers the same whether
 * or not one does (no account oracle). Limited per address and per source (429 beyond).
 */
export async function requestPasswordReset(ctx: IdentityContext, limits: PasswordResetLimits, input: { email: string; source: string }): Promise<void> {
  const address = input.email.trim().toLowerCase();
  const wait = Math.max(await limits.perAddress.waitMs(address), await limits.perSource.waitMs(input.source));
  if (wait > 0) throw new IdentityError("OVATION_ERR_IDENTITY_RATE_LIMITED", { extra: { retry_after: retryAfterSeconds(wait) } });
  await Promise.all([limits.perAddress.hit(address), limits.perSource.hit(input.source)]);
  const user = ctx.users.findByEmail(address);
  if (user === null || user.email === null || user.password_hash === null) return;
  const now = ctx.clock();
  const token = randomSecret(32);
  const data = ctx.store.data;
  // A new link replaces the older ones of the account.
  data.password_resets = data.password_resets.filter((r) => r.user_id !== user.id && r.expires_at > now);
  data.password_resets.push({ user_id: user.id, token_hash: sha256Hex(token), created_at: now, expires_at: now + PASSWORD_RESET_RULES.lifetimeMs });
  await ctx.store.save();
  try {
    await ctx.mailer.send({
      to: user.email,
      subject: "Reset your Ovation password",
      text: `Hello ${user.name},\n\nopen this link to choose a new password for your Ovation account:\n\n${ctx.idBase()}/password/reset?token=${encodeURIComponent(token)}\n\nThe link is valid for one hour and works once. Every browser signed in to your account is signed out when the password changes. If you did not ask for this, ignore this mail.\n`,
    });
  } catch (error) {
    data.password_resets = data.password_resets.filter((r) => r.token_hash !== sha256Hex(token));
    await ctx.store.save();
    throw error;
  }
}

/** Whether a reset link is known and unexpired (the form page; nothing is used up). */
export function passwordResetValid(ctx: IdentityContext, token: string): boolean {
  const hash = sha256Hex(token);
  const now = ctx.clock();
  return ctx.store.data.password_resets.some((r) => r.token_hash === hash && r.expires_at > now);
}

/**
 * Sets the new password of a reset link (once), then signs every browser out and revokes the
 * account's EATs. Null when the link is unknown or expired; the password's problems otherwise.
 */
export async function completePasswordReset(ctx: IdentityContext, token: string, password: string): Promise<{ ok: true } | { ok: false; problems: string[] } | null> {
  const hash = sha256Hex(token);
  const now = ctx.clock();
  const data = ctx.store.data;
  const record = data.password_resets.find((r) => r.token_hash === hash && r.expires_at > now);
  const user = record === undefined ? null : ctx.users.get(record.user_id);
  if (record === undefined || user === null) return null;
  const problems = passwordProblems(password, user);
  if (problems.length > 0) return { ok: false, problems };
  data.password_resets = data.password_resets.filter((r) => r.user_id !== record.user_id);
  await ctx.store.save();
  ctx.users.update(user.id, { password_hash: await hashPassword(password) });
  await signOutEverywhere(ctx, user.id);
  await ctx.eat.revokeAll(user.id);
  return { ok: true };
}
