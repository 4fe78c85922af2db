import type { FastifyRequest } from "fastify";
import type Provider from "oidc-provider";
import type { Principal } from "../auth/principal.js";
import { IdentityError } from "./identity-errors.js";
import { lookupOAuthToken } from "./oidc/token-verifier.js";
import { hasScope } from "./scope-descriptions.js";

/** The caller of an identity endpoint. `userId` is null for app access tokens (client credentials). */
export interface IdentityPrincipal {
  userId: number | null;
  clientId: string | null;
  scopes: readonly string[];
  tokenId: string;
  kind: string;
}

/** Bearer tokens the identity module does not issue (the host's personal access tokens). */
export interface ForeignTokenVerifier {
  verify(rawToken: string): Promise<Principal | null> | Principal | null;
}

/** The token of `Authorization: Bearer <token>`, or null. */
export function bearerFrom(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== "string") return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** Checks bearer tokens: this server's OAuth tokens first, then the host's verifiers (PATs). */
export class BearerAuthenticator {
  constructor(
    private readonly provider: () => Provider,
    private readonly foreign: ForeignTokenVerifier | undefined,
  ) {}

  /** The principal of the request; 401 `Unauthenticated.` when the token is missing or not valid. */
  async authenticate(request: FastifyRequest): Promise<IdentityPrincipal> {
    const raw = bearerFrom(request);
    if (raw === null || raw.length > 4096) throw new IdentityError("OVATION_ERR_IDENTITY_UNAUTHENTICATED");
    const oauth = await lookupOAuthToken(this.provider(), raw);
    if (oauth !== null) return oauth;
    const other = this.foreign === undefined ? null : await this.foreign.verify(raw);
    if (other !== null) return { userId: other.userId, clientId: null, scopes: other.scopes, tokenId: other.tokenId, kind: other.kind };
    throw new IdentityError("OVATION_ERR_IDENTITY_UNAUTHENTICATED");
  }
}

/** The user id of a user token holding every scope in `scopes`; 403 otherwise. */
export function requireUser(principal: IdentityPrincipal, ...scopes: string[]): number {
  if (principal.userId === null) throw new IdentityError("OVATION_ERR_IDENTITY_USER_TOKEN_REQUIRED");
  const missing = scopes.filter((s) => !hasScope(principal.scopes, s));
  if (missing.length > 0) throw new IdentityError("OVATION_ERR_IDENTITY_MISSING_SCOPE", { extra: { missing_scopes: missing } });
  return principal.userId;
}
