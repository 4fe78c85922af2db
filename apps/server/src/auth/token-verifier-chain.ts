import type { Principal, TokenVerifier } from "./principal.js";

/** Bearer tokens longer than this are refused without being looked at. */
export const MAX_BEARER_TOKEN_LENGTH = 4096;

/**
 * The verifiers a bearer token is tried against, in registration order; the first that knows the
 * token decides. The server registers personal access tokens; the identity module registers its
 * OAuth access tokens with `register`.
 */
export class TokenVerifierChain {
  readonly #verifiers: TokenVerifier[] = [];

  /** Adds a verifier at the end of the chain. */
  register(verifier: TokenVerifier): void {
    this.#verifiers.push(verifier);
  }

  /** The principal of a raw token, or null when no verifier accepts it. */
  async verify(rawToken: string): Promise<Principal | null> {
    if (rawToken.length === 0 || rawToken.length > MAX_BEARER_TOKEN_LENGTH) return null;
    for (const verifier of this.#verifiers) {
      const principal = await verifier.verify(rawToken);
      if (principal) return principal;
    }
    return null;
  }
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
