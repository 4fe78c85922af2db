import { hasScope as grants } from "@ovation/core/contracts";

/** Who is calling, as established by a token verifier. */
export interface Principal {
  userId: number;
  /** Scopes granted to the token; `*` grants every scope. */
  scopes: readonly string[];
  /** Id of the token within its kind (for revocation, logs). */
  tokenId: string;
  /** Which verifier accepted the token (`personal_access_token`, `oauth_access_token`...). */
  kind: string;
  /** For an OAuth access token: the grant it belongs to (revoking the grant revokes the token). */
  grantId?: string;
}

/** Checks a raw bearer token. Returns null for a token it does not know or that is no longer valid. */
export interface TokenVerifier {
  /** A short name for logs. */
  readonly name: string;
  verify(rawToken: string): Principal | null | Promise<Principal | null>;
}

/** Whether `principal` holds `scope` (or `*`), by the identity module's rule. */
export function hasScope(principal: Principal, scope: string): boolean {
  return grants(principal.scopes, scope);
}
