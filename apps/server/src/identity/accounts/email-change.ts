import { randomUUID } from "node:crypto";
import { timestamp } from "../../store/records.js";
import type { UserRecord } from "../../store/records.js";
import type { IdentityContext } from "../context.js";
import { IdentityError } from "../identity-errors.js";
import { randomSecret, sha256Hex } from "../../crypto/secrets.js";
import { SlidingWindowLimit, inMemoryTimeLogs, retryAfterSeconds } from "../failure-backoff.js";
import type { TimeLogFactory } from "../failure-backoff.js";

/** Verification mails per account and per address (docs/identity.md, "Email change"). */
export const EMAIL_CHANGE_LIMITS = Object.freeze({ perUser: 5, perAddress: 3, windowMs: 60 * 60 * 1000 });

/** The rate limits of `update-email`, per account and per target address. */
export class EmailChangeLimits {
  readonly perUser: SlidingWindowLimit;
  readonly perAddress: SlidingWindowLimit;

  /** `logs`: where events are kept (default this process's memory; Redis when several nodes share it). */
  constructor(now: () => number, logs: TimeLogFactory = inMemoryTimeLogs) {
    this.perUser = new SlidingWindowLimit(EMAIL_CHANGE_LIMITS.perUser, EMAIL_CHANGE_LIMITS.windowMs, now, logs("email-change:user", EMAIL_CHANGE_LIMITS.windowMs, now));
    this.perAddress = new SlidingWindowLimit(EMAIL_CHANGE_LIMITS.perAddress, EMAIL_CHANGE_LIMITS.windowMs, now, logs("email-change:address", EMAIL_CHANGE_LIMITS.windowMs, now));
  }
}

/**
 * Starts the verification of a new address: mails a link; the address becomes the account's once
 * the link's page is confirmed. Asking again for the same pending address only resends the mail.
 * An address that belongs to another account gets the same answer (nothing tells the caller it is
 * taken) and its owner is told by mail instead. Mails are limited per account and per address.
 */
export async function startEmailChange(ctx: IdentityContext, limits: EmailChangeLimits, user: UserRecord, email: string): Promise<{ status: "sent" | "resent"; email: string }> {
  const wanted = email.trim();
  const lower = wanted.toLowerCase();
  if (user.email !== null && user.email.toLowerCase() === lower && user.email_verified_at !== null) {
    throw new IdentityError("OVATION_ERR_IDENTITY_VALIDATION", { message: "The email is already your verified address.", errors: { email: ["The email is already your verified address."] } });
  }
  const wait = Math.max(await limits.perUser.waitMs(String(user.id)), await limits.perAddress.waitMs(lower));
  if (wait > 0) throw new IdentityError("OVATION_ERR_IDENTITY_RATE_LIMITED", { extra: { retry_after: retryAfterSeconds(wait) } });
  await Promise.all([limits.perUser.hit(String(user.id)), limits.perAddress.hit(lower)]);
  const owner = ctx.users.findByEmail(lower);
  if (owner !== null && owner.id !== user.id) {
    await ctx.mailer.send({
      to: owner.email ?? wanted,
      subject: "Someone tried to use your email address",
      text: `Hello ${owner.name},\n\nsomeone asked to make ${wanted} the email address of another Ovation account. Nothing was changed: the address stays with your account.\n\nIf this was you, you already have an account with this address; sign in with it instead. If it was not you, you can ignore this mail.\n`,
    });
    return { status: "sent", email: wanted };
  }
  const now = ctx.clock();
  const data = ctx.store.data;
  const previous = data.email_verifications.find((v) => v.user_id === user.id && v.email.toLowerCase() === lower && v.expires_at > now);
  const token = randomSecret(32);
  data.email_verifications = data.email_verifications.filter((v) => v.user_id !== user.id && v.expires_at > now);
  data.email_verifications.push({
    id: randomUUID(),
    user_id: user.id,
    email: wanted,
    token_hash: sha256Hex(token),
    created_at: now,
    expires_at: now + ctx.lifetimes.emailVerification * 1000,
    sent_count: (previous?.sent_count ?? 0) + 1,
  });
  await ctx.store.save();
  const link = `${ctx.idBase()}/api/email/verify?token=${encodeURIComponent(token)}`;
  try {
    await ctx.mailer.send({
      to: wanted,
      subject: "Confirm your email address",
      text: `Hello ${user.name},\n\nopen this link and press "Confirm" to make ${wanted} the email address of your Ovation account:\n\n${link}\n\nThe link is valid for ${Math.round(ctx.lifetimes.emailVerification / 3600)} hours. If you did not ask for this, ignore this mail.\n`,
    });
  } catch (error) {
    data.email_verifications = data.email_verifications.filter((v) => v.token_hash !== sha256Hex(token));
    await ctx.store.save();
    throw error;
  }
  return { status: previous ? "resent" : "sent", email: wanted };
}

/** Whether a verification link is known and unexpired (the confirmation page; nothing is used up). */
export function emailChangeTarget(ctx: IdentityContext, token: string): string | null {
  const hash = sha256Hex(token);
  const now = ctx.clock();
  return ctx.store.data.email_verifications.find((v) => v.token_hash === hash && v.expires_at > now)?.email ?? null;
}

/** The address pending verification for a user, or null. */
export function pendingEmail(ctx: IdentityContext, userId: number): string | null {
  const now = ctx.clock();
  return ctx.store.data.email_verifications.find((v) => v.user_id === userId && v.expires_at > now)?.email ?? null;
}

/** Redeems a verification link (the page's POST): the address becomes the account's, verified. Null when unknown or expired. */
export async function confirmEmailChange(ctx: IdentityContext, token: string): Promise<UserRecord | null> {
  const hash = sha256Hex(token);
  const now = ctx.clock();
  const data = ctx.store.data;
  const record = data.email_verifications.find((v) => v.token_hash === hash && v.expires_at > now);
  if (record === undefined) return null;
  data.email_verifications = data.email_verifications.filter((v) => v !== record);
  await ctx.store.save();
  const owner = ctx.users.findByEmail(record.email);
  if (owner !== null && owner.id !== record.user_id) return null;
  const old = ctx.users.get(record.user_id)?.email ?? null;
  const updated = ctx.users.update(record.user_id, { email: record.email, email_verified_at: timestamp(new Date(now)) });
  if (updated !== null && old !== null && old.toLowerCase() !== record.email.toLowerCase()) {
    // The old address hears of the change: if the account was taken over, its owner finds out.
    try {
      await ctx.mailer.send({
        to: old,
        subject: "Your Ovation email address was changed",
        text: `Hello ${updated.name},\n\nthe email address of your Ovation account was changed from ${old} to ${record.email}.\n\nIf you did this, there is nothing to do. If you did not, someone may be using your account: contact the operator of this Ovation server.\n`,
      });
    } catch (error) {
      ctx.logger.warn({ err: error }, "could not notify the previous email address");
    }
  }
  return updated;
}
