import type { Principal, TokenVerifier } from "../../auth/principal.js";
import { IdentityError } from "../identity-errors.js";
import { sha256Hex } from "../../crypto/secrets.js";
import { maybeOAuthAccessToken } from "./token-verifier.js";

/** Settings of a main API whose identity host is elsewhere (`OVATION_ID_URL` on another host). */
export interface IntrospectionVerifierOptions {
  /** The identity host, without `/oauth`. */
  idUrl: string;
  /** A confidential client of the identity host that the main API authenticates as. */
  clientId: string;
  clientSecret: string;
  /** How long an answer is reused, in milliseconds (default 30 s; revocation shows after at most this). */
  cacheMs?: number;
  timeoutMs?: number;
  now?: () => number;
}

/**
 * The main API's bearer check when the identity module runs on another host: asks the identity
 * host's RFC 7662 introspection endpoint (as a confidential client) and caches answers briefly.
 * Unknown, inactive and app-only tokens are null; an unreachable identity host is a 503.
 */
export class IntrospectionTokenVerifier implements TokenVerifier {
  readonly name = "oauth_access_token";
  private readonly cache = new Map<string, { principal: Principal | null; until: number }>();

  constructor(private readonly options: IntrospectionVerifierOptions) {}

  async verify(rawToken: string): Promise<Principal | null> {
    return this.#verify(rawToken, false);
  }

  /** Asks the identity host again, past the cache (the periodic re-check of open sockets). */
  async recheck(rawToken: string): Promise<Principal | null> {
    return this.#verify(rawToken, true);
  }

  async #verify(rawToken: string, fresh: boolean): Promise<Principal | null> {
    if (!maybeOAuthAccessToken(rawToken)) return null;
    const now = (this.options.now ?? Date.now)();
    const key = sha256Hex(rawToken);
    const cached = this.cache.get(key);
    if (!fresh && cached !== undefined && cached.until > now) return cached.principal;
    let response: Response;
    try {
      response = await fetch(`${this.options.idUrl.replace(/\/+$/, "")}/oauth/introspect`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(this.options.clientId)}:${encodeURIComponent(this.options.clientSecret)}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: new URLSearchParams({ token: rawToken }).toString(),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
      });
    } catch (cause) {
      throw new IdentityError("OVATION_ERR_IDENTITY_REMOTE_UNAVAILABLE", { cause });
    }
    if (response.status !== 200) throw new IdentityError("OVATION_ERR_IDENTITY_REMOTE_UNAVAILABLE", { message: `The identity service answered introspection with HTTP ${response.status}.` });
    const body = (await response.json()) as { active?: unknown; sub?: unknown; scope?: unknown; exp?: unknown; token_type?: unknown };
    const userId = typeof body.sub === "string" ? Number(body.sub) : NaN;
    const principal: Principal | null =
      // Only access tokens carry a token_type; refresh tokens must never pass as bearer tokens.
      body.active === true && body.token_type === "Bearer" && Number.isSafeInteger(userId)
        ? { userId, scopes: typeof body.scope === "string" ? body.scope.split(" ").filter((s) => s.length > 0) : [], tokenId: key.slice(0, 16), kind: this.name }
        : null;
    const expiresAt = typeof body.exp === "number" ? body.exp * 1000 : Infinity;
    this.cache.set(key, { principal, until: Math.min(now + (this.options.cacheMs ?? 30_000), expiresAt) });
    if (this.cache.size > 10_000) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    return principal;
  }
}
