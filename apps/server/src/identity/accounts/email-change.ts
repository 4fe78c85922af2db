import { randomUUID } from "node:crypto";
import { timestamp } from "../../store/records.js";
import type { UserRecord } from "../../store/records.js";
import type { IdentityContext } from "../context.js";
import { IdentityError } from "../errors.js";
import { randomSecret, sha256Hex } from "../secrets.js";

/**
 * Starts the verification of a new address: mails a link; the address becomes the account's once
 * the link is opened. Asking again for the same pending address only resends the mail.
 */
export async function startEmailChange(ctx: IdentityContext, user: UserRecord, email: string): Promise<{ status: "sent" | "resent"; email: string }> {
  const wanted = email.trim();
  const lower = wanted.toLowerCase();
  if (user.email !== null && user.email.toLowerCase() === lower && user.email_verified_at !== null) {
    throw new IdentityError("OVATION_ERR_IDENTITY_VALIDATION", { message: "The email is already your verified address.", errors: { email: ["The email is already your verified address."] } });
  }
  const owner = ctx.users.findByEmail(lower);
  if (owner !== null && owner.id !== user.id) {
    throw new IdentityError("OVATION_ERR_IDENTITY_EMAIL_TAKEN", { errors: { email: ["The email has already been taken."] } });
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
      text: `Hello ${user.name},\n\nopen this link to confirm ${wanted} as the email address of your Ovation account:\n\n${link}\n\nThe link is valid for ${Math.round(ctx.lifetimes.emailVerification / 3600)} hours. If you did not ask for this, ignore this mail.\n`,
    });
  } catch (error) {
    data.email_verifications = data.email_verifications.filter((v) => v.token_hash !== sha256Hex(token));
    await ctx.store.save();
    throw error;
  }
  return { status: previous ? "resent" : "sent", email: wanted };
}

/** The address pending verification for a user, or null. */
export function pendingEmail(ctx: IdentityContext, userId: number): string | null {
  const now = ctx.clock();
  return ctx.store.data.email_verifications.find((v) => v.user_id === userId && v.expires_at > now)?.email ?? null;
}

/** Redeems a verification link: the address becomes the account's, verified. Null when unknown or expired. */
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
  return ctx.users.update(record.user_id, { email: record.email, email_verified_at: timestamp(new Date(now)) });
}
