import type { UserRecord } from "../../store/records.js";
import type { IdentityContext } from "../context.js";
import { randomSecret } from "../secrets.js";
import { hashPassword, verifyPassword } from "./passwords.js";

/** Failed sign-ins allowed per email address within the window before it is locked for the window. */
export const LOGIN_LIMIT = Object.freeze({ failures: 10, windowMs: 15 * 60 * 1000 });

/** Counts failed sign-ins per key (the email address), in memory of this process. */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly now: () => number) {}

  /** Whether the key is locked right now. */
  locked(key: string): boolean {
    return this.recent(key).length >= LOGIN_LIMIT.failures;
  }

  /** Records one failure. */
  fail(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.failures.set(key, list);
    if (this.failures.size > 10_000) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  /** Forgets the failures of a key after a success. */
  clear(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.now() - LOGIN_LIMIT.windowMs;
    return (this.failures.get(key) ?? []).filter((t) => t > since);
  }
}

/**
 * The outcome of an email + password (+ TOTP) sign-in. `security-key`: the password was right and the
 * account has hardware keys; the sign-in finishes once one of them signs.
 */
export type LoginOutcome = { ok: true; user: UserRecord } | { ok: "security-key"; user: UserRecord } | { ok: false; message: string; status: 401 | 422 | 429 };

// Unknown addresses are checked against a real hash, so they take as long as wrong passwords.
let dummyHash: Promise<string> | undefined;

/** Checks a local sign-in; wrong email and wrong password answer alike. */
export async function signInWithPassword(
  ctx: IdentityContext,
  throttle: LoginThrottle,
  input: { email: string; password: string; totp: string },
): Promise<LoginOutcome> {
  const key = input.email.trim().toLowerCase();
  if (key.length === 0 || input.password.length === 0) return { ok: false, status: 422, message: "Enter your email address and password." };
  if (throttle.locked(key)) return { ok: false, status: 429, message: "Too many failed sign-ins. Try again in 15 minutes." };
  const user = ctx.users.findByEmail(key);
  dummyHash ??= hashPassword(randomSecret(16));
  const passwordOk = await verifyPassword(user?.password_hash ?? (await dummyHash), input.password);
  if (!user || user.password_hash === null || !passwordOk) {
    throttle.fail(key);
    return { ok: false, status: 401, message: "These credentials do not match our records." };
  }
  const hasTotp = ctx.totp.enabled(user.id) !== undefined;
  const code = input.totp.trim();
  if (hasTotp && code.length > 0) {
    if (!(await ctx.totp.verifyForLogin(user.id, code))) {
      throttle.fail(key);
      return { ok: false, status: 401, message: "The authenticator code is invalid." };
    }
  } else if (ctx.webauthn.hasKeys(user.id)) {
    throttle.clear(key);
    return { ok: "security-key", user };
  } else if (hasTotp) {
    return { ok: false, status: 401, message: "Enter the code from your authenticator app (or a recovery code)." };
  }
  throttle.clear(key);
  return { ok: true, user };
}
