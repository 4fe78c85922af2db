import type { UserRecord } from "../../store/records.js";
import type { IdentityContext } from "../context.js";
import { randomSecret } from "../../crypto/secrets.js";
import type { SignInField } from "../pages/sign-in.js";
import { FailureBackoff, inMemoryTimeLogs, isCountersUnavailable, retryAfterSeconds } from "../failure-backoff.js";
import type { TimeLogFactory } from "../failure-backoff.js";
import { hashPassword, verifyPassword } from "./passwords.js";

const WINDOW_MS = 15 * 60 * 1000;

/**
 * Sign-in throttling (docs/identity.md, "Sign-in throttling"). Failures are counted per address and
 * source together, per address from anywhere, and per source across addresses:
 * - one source guessing one address: 5 free failures, then 1 s, 2 s, 4 s... up to 15 minutes;
 * - one address from many sources: 20 free failures, then waits of at most 30 s, so an attacker
 *   elsewhere slows the owner down but never locks them out;
 * - one source across many addresses (password spraying): 20 free failures, then up to 15 minutes.
 */
export const SIGN_IN_LIMITS = Object.freeze({
  pair: { free: 5, baseMs: 1000, maxMs: WINDOW_MS, windowMs: WINDOW_MS },
  address: { free: 20, baseMs: 1000, maxMs: 30_000, windowMs: WINDOW_MS },
  source: { free: 20, baseMs: 1000, maxMs: WINDOW_MS, windowMs: WINDOW_MS },
});

/** The three failure counters of password sign-in. */
export class LoginThrottle {
  private readonly pair: FailureBackoff;
  private readonly address: FailureBackoff;
  private readonly source: FailureBackoff;

  /** `logs`: where failures are kept (default this process's memory; Redis when several nodes share it). */
  constructor(now: () => number, logs: TimeLogFactory = inMemoryTimeLogs) {
    const backoff = (name: keyof typeof SIGN_IN_LIMITS) => new FailureBackoff(SIGN_IN_LIMITS[name], now, logs(`sign-in:${name}`, SIGN_IN_LIMITS[name].windowMs, now));
    this.pair = backoff("pair");
    this.address = backoff("address");
    this.source = backoff("source");
  }

  /** Milliseconds before `source` may try `address` again (0: now). */
  async waitMs(address: string, source: string): Promise<number> {
    const waits = await Promise.all([this.pair.waitMs(`${source}\n${address}`), this.address.waitMs(address), this.source.waitMs(source)]);
    return Math.max(...waits);
  }

  /** Records a failed attempt. */
  async fail(address: string, source: string): Promise<void> {
    await Promise.all([this.pair.fail(`${source}\n${address}`), this.address.fail(address), this.source.fail(source)]);
  }

  /** After a success: this source's failures on this address are forgotten (the others stay). */
  async succeed(address: string, source: string): Promise<void> {
    await this.pair.clear(`${source}\n${address}`);
  }
}

/**
 * The outcome of an email + password (+ TOTP) sign-in. `security-key`: the password was right and the
 * account has hardware keys; the sign-in finishes once one of them signs.
 */
export type LoginOutcome =
  | { ok: true; user: UserRecord }
  | { ok: "security-key"; user: UserRecord }
  | { ok: false; message: string; status: 401 | 422 | 429 | 503; field?: SignInField; retryAfter?: number };

// Unknown addresses are checked against a real hash, so they take as long as wrong passwords.
let dummyHash: Promise<string> | undefined;

/**
 * Checks a local sign-in; wrong email and wrong password answer alike. When the shared failure
 * counters cannot be reached (Redis down), nobody signs in with a password (503): a password is never
 * tried without its failure being counted.
 */
export async function signInWithPassword(
  ctx: IdentityContext,
  throttle: LoginThrottle,
  input: { email: string; password: string; totp: string; source: string },
): Promise<LoginOutcome> {
  try {
    return await checkSignIn(ctx, throttle, input);
  } catch (error) {
    if (!isCountersUnavailable(error)) throw error;
    return { ok: false, status: 503, retryAfter: 30, message: "Sign-in is unavailable for a moment. Try again in 30 seconds." };
  }
}

async function checkSignIn(ctx: IdentityContext, throttle: LoginThrottle, input: { email: string; password: string; totp: string; source: string }): Promise<LoginOutcome> {
  const key = input.email.trim().toLowerCase();
  if (key.length === 0) return { ok: false, status: 422, field: "email", message: "Enter your email address." };
  if (input.password.length === 0) return { ok: false, status: 422, field: "password", message: "Enter your password." };
  const wait = await throttle.waitMs(key, input.source);
  if (wait > 0) {
    const seconds = retryAfterSeconds(wait);
    return { ok: false, status: 429, retryAfter: seconds, message: `Too many failed sign-ins. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.` };
  }
  const user = ctx.users.findByEmail(key);
  dummyHash ??= hashPassword(randomSecret(16));
  const passwordOk = await verifyPassword(user?.password_hash ?? (await dummyHash), input.password);
  if (!user || user.password_hash === null || !passwordOk) {
    await throttle.fail(key, input.source);
    return { ok: false, status: 401, field: "password", message: "These credentials do not match our records." };
  }
  const hasTotp = ctx.totp.enabled(user.id) !== undefined;
  const code = input.totp.trim();
  if (hasTotp && code.length > 0) {
    if (!(await ctx.totp.verifyForLogin(user.id, code))) {
      await throttle.fail(key, input.source);
      return { ok: false, status: 401, field: "totp", message: "The authenticator code is invalid." };
    }
  } else if (ctx.webauthn.hasKeys(user.id)) {
    await throttle.succeed(key, input.source);
    return { ok: "security-key", user };
  } else if (hasTotp) {
    return { ok: false, status: 401, field: "totp", message: "Enter the code from your authenticator app (or a recovery code)." };
  }
  await throttle.succeed(key, input.source);
  return { ok: true, user };
}
