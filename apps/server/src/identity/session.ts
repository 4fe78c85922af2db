import type { Clock } from "./clock.js";
import { randomSecret, sha256Hex } from "../crypto/secrets.js";
import type { IdentityStore } from "./identity-store.js";

/** Name of the browser session cookie set by the sign-in page (also read by the socket handshake). */
export const SESSION_COOKIE = "ovation_session";

/** Browser sessions: the cookie carries a random id, the store keeps its SHA-256. */
export class SessionService {
  constructor(
    private readonly store: IdentityStore,
    private readonly clock: Clock,
    private readonly lifetimeSeconds: number,
    private readonly secure: () => boolean,
  ) {}

  /** Opens a session for a user and returns the `Set-Cookie` value. */
  async create(userId: number): Promise<string> {
    const raw = randomSecret(32);
    const now = this.clock();
    const data = this.store.data;
    data.sessions = data.sessions.filter((s) => s.expires_at > now);
    data.sessions.push({ id_hash: sha256Hex(raw), user_id: userId, created_at: now, expires_at: now + this.lifetimeSeconds * 1000 });
    await this.store.save();
    return this.cookie(raw, this.lifetimeSeconds);
  }

  /** The user of a raw session id, or null when unknown or expired. */
  userOf(raw: string | undefined): number | null {
    if (raw === undefined || raw.length === 0 || raw.length > 128) return null;
    const hash = sha256Hex(raw);
    const session = this.store.data.sessions.find((s) => s.id_hash === hash);
    return session !== undefined && this.clock() < session.expires_at ? session.user_id : null;
  }

  /** The user of a `Cookie` request header, or null (what the socket handshake calls). */
  userOfCookieHeader(header: string | undefined): number | null {
    return this.userOf(readCookie(header, SESSION_COOKIE));
  }

  /** Ends one session; returns the `Set-Cookie` value that clears the cookie. */
  async destroy(raw: string | undefined): Promise<string> {
    if (raw !== undefined) {
      const hash = sha256Hex(raw);
      this.store.data.sessions = this.store.data.sessions.filter((s) => s.id_hash !== hash);
      await this.store.save();
    }
    return this.cookie("", 0);
  }

  /** The `Set-Cookie` value that clears the session cookie. */
  clearCookie(): string {
    return this.cookie("", 0);
  }

  /** Ends every session of a user (password change, account deletion). */
  async destroyAllForUser(userId: number): Promise<void> {
    this.store.data.sessions = this.store.data.sessions.filter((s) => s.user_id !== userId);
    await this.store.save();
  }

  private cookie(value: string, maxAge: number): string {
    return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${this.secure() ? "; Secure" : ""}`;
  }
}

/** The value of one cookie in a `Cookie` header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
