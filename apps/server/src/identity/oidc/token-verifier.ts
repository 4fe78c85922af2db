import type Provider from "oidc-provider";
import type { Principal, TokenVerifier } from "../../auth/principal.js";
import { sha256Hex } from "../../crypto/secrets.js";
import { looksLikeJwt } from "./access-token-jwt.js";

/** Whether a bearer string can be an access token of this server: an RS256 JWT, or an opaque token issued before tokens became JWTs. */
export function maybeOAuthAccessToken(raw: string): boolean {
  return looksLikeJwt(raw) || (raw.length >= 20 && raw.length <= 256 && /^[A-Za-z0-9_-]+$/.test(raw));
}

/** Who a token of this authorization server speaks for; `userId` is null for app access tokens. */
export interface OAuthTokenInfo {
  userId: number | null;
  clientId: string;
  scopes: string[];
  /** A stable, non-secret id of the token (SHA-256 prefix), for logs. */
  tokenId: string;
  kind: "oauth_access_token" | "oauth_app_access_token";
  /** The grant of a user's token (revoking the token or its refresh token revokes the grant). */
  grantId?: string;
}

/**
 * Looks an access token up (user tokens first, then client-credentials tokens). A JWT leads to its
 * stored record only when its signature verifies, so a revoked or expired token is refused even
 * though its JWT still verifies offline.
 */
export async function lookupOAuthToken(provider: Provider, raw: string): Promise<OAuthTokenInfo | null> {
  if (!maybeOAuthAccessToken(raw)) return null;
  const tokenId = sha256Hex(raw).slice(0, 16);
  const at = await provider.AccessToken.find(raw);
  if (at && !at.isExpired && at.accountId !== undefined) {
    const userId = Number(at.accountId);
    if (!Number.isSafeInteger(userId)) return null;
    return { userId, clientId: at.clientId ?? "", scopes: splitScope(at.scope), tokenId, kind: "oauth_access_token", ...(at.grantId ? { grantId: at.grantId } : {}) };
  }
  const cc = await provider.ClientCredentials.find(raw);
  if (cc && !cc.isExpired) {
    return { userId: null, clientId: cc.clientId ?? "", scopes: splitScope(cc.scope), tokenId, kind: "oauth_app_access_token" };
  }
  return null;
}

function splitScope(scope: string | undefined): string[] {
  return (scope ?? "").split(" ").filter((s) => s.length > 0);
}

/**
 * The host's bearer check for OAuth access tokens issued here. App access tokens (client
 * credentials) carry no user, so the user-bound main API does not accept them.
 */
export class OAuthAccessTokenVerifier implements TokenVerifier {
  readonly name = "oauth_access_token";

  constructor(private readonly provider: () => Provider) {}

  async verify(rawToken: string): Promise<Principal | null> {
    const info = await lookupOAuthToken(this.provider(), rawToken);
    if (info === null || info.userId === null) return null;
    return { userId: info.userId, scopes: info.scopes, tokenId: info.tokenId, kind: this.name, ...(info.grantId ? { grantId: info.grantId } : {}) };
  }
}
