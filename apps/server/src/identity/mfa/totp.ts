import { Secret, TOTP } from "otpauth";
import type { Clock } from "../clock.js";
import { IdentityError } from "../identity-errors.js";
import { constantTimeEqual, randomSecret, sha256Hex } from "../../crypto/secrets.js";
import type { IdentityStore, TotpRecord } from "../identity-store.js";

/** How many recovery codes an enrolment yields. */
export const RECOVERY_CODE_COUNT = 10;

function totpOf(record: { secret: string }, label: string): TOTP {
  return new TOTP({ issuer: "Ovation", label, algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(record.secret) });
}

/**
 * Two-step verification with TOTP (RFC 6238, 6 digits, 30 s, ±1 step). Enrolment is two-phase
 * (start, then confirm with a code); recovery codes are shown once and stored hashed, each single use.
 */
export class TotpService {
  constructor(
    private readonly store: IdentityStore,
    private readonly clock: Clock,
  ) {}

  /** The confirmed enrolment of a user, or undefined. */
  enabled(userId: number): TotpRecord | undefined {
    return this.store.data.totp.find((t) => t.user_id === userId && t.confirmed_at !== null);
  }

  /** Starts (or restarts) an enrolment: a new secret and its otpauth:// URI. */
  async start(userId: number, label: string): Promise<{ secret: string; otpauth_url: string }> {
    if (this.enabled(userId)) throw new IdentityError("OVATION_ERR_IDENTITY_TOTP_ALREADY_ENABLED");
    const secret = new Secret({ size: 20 }).base32;
    const record: TotpRecord = { user_id: userId, secret, confirmed_at: null, recovery_code_hashes: [], last_step: null, created_at: this.clock() };
    this.store.data.totp = this.store.data.totp.filter((t) => t.user_id !== userId);
    this.store.data.totp.push(record);
    await this.store.save();
    return { secret, otpauth_url: totpOf(record, label).toString() };
  }

  /** Confirms the pending enrolment with a current code; returns the recovery codes (shown once). */
  async confirm(userId: number, code: string): Promise<string[]> {
    const record = this.store.data.totp.find((t) => t.user_id === userId);
    if (record === undefined) throw new IdentityError("OVATION_ERR_IDENTITY_TOTP_NOT_ENABLED");
    if (record.confirmed_at !== null) throw new IdentityError("OVATION_ERR_IDENTITY_TOTP_ALREADY_ENABLED");
    if (!this.acceptCode(record, code)) throw new IdentityError("OVATION_ERR_IDENTITY_TOTP_CODE_INVALID", { errors: { code: ["The authenticator code is invalid."] } });
    const codes = newRecoveryCodes(record);
    record.confirmed_at = this.clock();
    await this.store.save();
    return codes;
  }

  /** Replaces the recovery codes of a confirmed enrolment (the old ones stop working); returns the new ones, shown once. */
  async regenerateRecoveryCodes(userId: number): Promise<string[]> {
    const record = this.enabled(userId);
    if (record === undefined) throw new IdentityError("OVATION_ERR_IDENTITY_TOTP_NOT_ENABLED");
    const codes = newRecoveryCodes(record);
    await this.store.save();
    return codes;
  }

  /** Turns two-step verification off. */
  async disable(userId: number): Promise<void> {
    const before = this.store.data.totp.length;
    this.store.data.totp = this.store.data.totp.filter((t) => t.user_id !== userId);
    if (this.store.data.totp.length === before) throw new IdentityError("OVATION_ERR_IDENTITY_TOTP_NOT_ENABLED");
    await this.store.save();
  }

  /** Checks a sign-in code: a current TOTP code or an unused recovery code (which is then spent). */
  async verifyForLogin(userId: number, code: string): Promise<boolean> {
    const record = this.enabled(userId);
    if (record === undefined) return true;
    if (this.acceptCode(record, code)) {
      await this.store.save();
      return true;
    }
    const hash = sha256Hex(normalizeRecovery(code));
    const index = record.recovery_code_hashes.findIndex((h) => constantTimeEqual(h, hash));
    if (index < 0) return false;
    record.recovery_code_hashes.splice(index, 1);
    await this.store.save();
    return true;
  }

  private acceptCode(record: TotpRecord, code: string): boolean {
    const token = code.replace(/\s+/g, "");
    if (!/^\d{6}$/.test(token)) return false;
    const now = this.clock();
    const totp = totpOf(record, "x");
    const delta = totp.validate({ token, timestamp: now, window: 1 });
    if (delta === null) return false;
    const step = totp.counter({ timestamp: now }) + delta;
    if (record.last_step !== null && step <= record.last_step) return false;
    record.last_step = step;
    return true;
  }
}

/** Gives `record` a fresh set of recovery codes, stored hashed; returns them in clear (shown once). */
function newRecoveryCodes(record: TotpRecord): string[] {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => formatRecovery(randomSecret(8)));
  record.recovery_code_hashes = codes.map((c) => sha256Hex(normalizeRecovery(c)));
  return codes;
}

function formatRecovery(raw: string): string {
  const clean = raw.replace(/[^A-Za-z0-9]/g, "x").slice(0, 10).toLowerCase();
  return `${clean.slice(0, 5)}-${clean.slice(5, 10)}`;
}

function normalizeRecovery(code: string): string {
  return code.trim().toLowerCase().replace(/-/g, "");
}
