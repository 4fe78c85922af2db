import { randomUUID } from "node:crypto";
import { timestamp } from "../../store/records.js";
import { counted } from "../failure-backoff.js";
import type { Clock } from "../clock.js";
import { IdentityError } from "../identity-errors.js";
import type { Mailer } from "../mail/mailer.js";
import { constantTimeEqual, randomDigits, randomSecret, sha256Hex } from "../../crypto/secrets.js";
import type { EatRecord, IdentityStore } from "../identity-store.js";

/** Rules of the one-time codes and of the request rate limit (documented in docs/identity.md). */
export const EAT_CODE_RULES = Object.freeze({
  digits: 6,
  maxWrongAttempts: 5,
  /** At most `requestsPerWindow` codes per user within `requestWindowMs`. */
  requestsPerWindow: 5,
  requestWindowMs: 15 * 60 * 1000,
});

/** Prefix of every elevated access token. */
export const EAT_PREFIX = "oveat_";
const EAT_SHAPE = /^oveat_([0-9a-f-]{36})_([A-Za-z0-9_-]{43})$/;

/**
 * The public view of an EAT: what verify-code returns (plus the raw `token`, that once) and verify
 * echoes. Timestamps are ISO 8601 UTC with six fractional digits, like the rest of the API.
 */
export interface ElevatedAccessTokenView {
  id: string;
  user_id: number;
  created_at: string;
  expires_at: string;
}

function view(record: EatRecord): ElevatedAccessTokenView {
  return {
    id: record.id,
    user_id: record.user_id,
    created_at: timestamp(new Date(record.created_at)),
    expires_at: timestamp(new Date(record.expires_at)),
  };
}

const CODE_SHAPE = new RegExp(`^[0-9]{${EAT_CODE_RULES.digits}}$`);

/**
 * Wrong tries per code, counted atomically where every node sees them (Redis when several nodes
 * share it); without one, the code's own `wrong_attempts` field counts (one process).
 */
export interface AttemptCounter {
  /** The count of `key` (0 when unknown or expired). */
  count(key: string): number | Promise<number>;
  /** Adds one to `key` (kept `ttlMs` from its first try) and returns the new count. */
  increment(key: string, ttlMs: number): number | Promise<number>;
}

/**
 * Elevated Access Tokens: one-time codes mailed on request (stored hashed, single use, 5 wrong
 * tries then burned, rate-limited per user) exchanged for a short-lived EAT bound to its user.
 */
export class EatService {
  constructor(
    private readonly store: IdentityStore,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly lifetimes: { eat: number; eatCode: number },
    private readonly attempts: AttemptCounter | null = null,
  ) {}

  /** Mails a fresh code to `email`; earlier unused codes of the user stop working. */
  async requestVerification(user: { id: number; email: string | null; name: string }): Promise<{ expires_at: string; sent_to: string; delivery: "email" | "server-log" }> {
    if (user.email === null) throw new IdentityError("OVATION_ERR_IDENTITY_NO_EMAIL");
    const now = this.clock();
    const data = this.store.data;
    const recent = data.eat_codes.filter((c) => c.user_id === user.id && c.created_at > now - EAT_CODE_RULES.requestWindowMs);
    if (recent.length >= EAT_CODE_RULES.requestsPerWindow) {
      const oldest = Math.min(...recent.map((c) => c.created_at));
      const retryAfter = Math.max(1, Math.ceil((oldest + EAT_CODE_RULES.requestWindowMs - now) / 1000));
      throw new IdentityError("OVATION_ERR_IDENTITY_RATE_LIMITED", { extra: { retry_after: retryAfter } });
    }
    for (const c of data.eat_codes) {
      if (c.user_id === user.id && c.consumed_at === null) c.consumed_at = now;
    }
    data.eat_codes = data.eat_codes.filter((c) => c.created_at > now - Math.max(EAT_CODE_RULES.requestWindowMs, this.lifetimes.eatCode * 1000));
    const code = randomDigits(EAT_CODE_RULES.digits);
    const id = randomUUID();
    const expiresAt = now + this.lifetimes.eatCode * 1000;
    data.eat_codes.push({ id, user_id: user.id, code_hash: sha256Hex(`${id}:${code}`), created_at: now, expires_at: expiresAt, wrong_attempts: 0, consumed_at: null, burned: false });
    await this.store.save();
    const minutes = Math.round(this.lifetimes.eatCode / 60);
    try {
      await this.mailer.send({
        to: user.email,
        subject: "Your Ovation verification code",
        text: `Hello ${user.name},\n\nyour verification code is: ${code}\n\nIt is valid for ${minutes} minutes and can be used once. If you did not ask for it, someone may be using your account: change your password.\n`,
      });
    } catch (error) {
      // A code nobody received must not count against the user's requests.
      data.eat_codes = data.eat_codes.filter((c) => c.id !== id);
      await this.store.save();
      throw error;
    }
    return { expires_at: timestamp(new Date(expiresAt)), sent_to: maskEmail(user.email), delivery: this.mailer.transport === "smtp" ? "email" : "server-log" };
  }

  /** Redeems a code for a new EAT; the raw token is in the result once and never stored. */
  async verifyCode(userId: number, code: string): Promise<ElevatedAccessTokenView & { token: string }> {
    // A malformed code (not six digits) is a typing slip, not a guess: it uses up no try.
    if (!CODE_SHAPE.test(code)) {
      throw new IdentityError("OVATION_ERR_IDENTITY_VALIDATION", { message: `The code field must be ${EAT_CODE_RULES.digits} digits.`, errors: { code: [`The code field must be ${EAT_CODE_RULES.digits} digits.`] } });
    }
    const now = this.clock();
    const data = this.store.data;
    const pending = data.eat_codes.find((c) => c.user_id === userId && c.consumed_at === null && now < c.expires_at);
    if (pending === undefined) {
      throw new IdentityError("OVATION_ERR_IDENTITY_EAT_CODE_INVALID", { errors: { code: ["The verification code is invalid or expired; request a new one."] }, extra: { attempts_left: 0 } });
    }
    const attempts = this.attempts;
    const key = pending.id;
    // Read before comparing: with the shared counter unreachable no code is compared (503), so no
    // guess goes uncounted; tries other nodes counted burn the code here too.
    const triesSoFar = attempts === null ? pending.wrong_attempts : Math.max(pending.wrong_attempts, await counted(() => attempts.count(key)));
    if (triesSoFar >= EAT_CODE_RULES.maxWrongAttempts) {
      pending.burned = true;
      pending.consumed_at = now;
      await this.store.save();
      throw new IdentityError("OVATION_ERR_IDENTITY_EAT_CODE_BURNED", { errors: { code: ["Too many wrong codes; request a new one."] }, extra: { attempts_left: 0 } });
    }
    if (!constantTimeEqual(sha256Hex(`${pending.id}:${code}`), pending.code_hash)) {
      pending.wrong_attempts = attempts === null ? pending.wrong_attempts + 1 : Math.max(pending.wrong_attempts + 1, await counted(() => attempts.increment(key, pending.expires_at - now)));
      if (pending.wrong_attempts >= EAT_CODE_RULES.maxWrongAttempts) {
        pending.burned = true;
        pending.consumed_at = now;
        await this.store.save();
        throw new IdentityError("OVATION_ERR_IDENTITY_EAT_CODE_BURNED", { errors: { code: ["Too many wrong codes; request a new one."] }, extra: { attempts_left: 0 } });
      }
      await this.store.save();
      const left = EAT_CODE_RULES.maxWrongAttempts - pending.wrong_attempts;
      throw new IdentityError("OVATION_ERR_IDENTITY_EAT_CODE_INVALID", { errors: { code: ["The verification code is invalid."] }, extra: { attempts_left: left } });
    }
    pending.consumed_at = now;
    const id = randomUUID();
    const secret = randomSecret(32);
    const token = `${EAT_PREFIX}${id}_${secret}`;
    const record: EatRecord = { id, user_id: userId, secret_hash: sha256Hex(token), created_at: now, expires_at: now + this.lifetimes.eat * 1000, revoked_at: null };
    data.eats = data.eats.filter((e) => e.expires_at > now && e.revoked_at === null);
    data.eats.push(record);
    await this.store.save();
    return { ...view(record), token };
  }

  /**
   * The EAT record when `rawToken` is a valid EAT of `userId` at this instant: known, hash equal,
   * not revoked, `now < expires_at` (expiry is exact). Null otherwise.
   */
  validate(userId: number, rawToken: string): ElevatedAccessTokenView | null {
    const match = EAT_SHAPE.exec(rawToken);
    if (!match) return null;
    const record = this.store.data.eats.find((e) => e.id === match[1]);
    if (record === undefined || !constantTimeEqual(sha256Hex(rawToken), record.secret_hash)) return null;
    if (record.user_id !== userId || record.revoked_at !== null || this.clock() >= record.expires_at) return null;
    return view(record);
  }

  /** Revokes every EAT of a user (after a password change or account deletion). */
  async revokeAll(userId: number): Promise<void> {
    const now = this.clock();
    for (const e of this.store.data.eats) if (e.user_id === userId && e.revoked_at === null) e.revoked_at = now;
    await this.store.save();
  }
}

/** `alice@example.com` -> `a***@example.com`: enough to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${email[0]}***${email.slice(at)}`;
}
