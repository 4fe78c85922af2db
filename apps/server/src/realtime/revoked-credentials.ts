import { definedKeys } from "@ovation/core/contracts";
import type { Principal } from "../auth/principal.js";
import type { RevokedCredential, SocketCredential } from "./socket-types.js";

/** How long a revocation is remembered for sockets whose handshake was being checked when it happened. */
export const REVOCATION_MEMORY_MS = 30_000;

/** The credential a socket keeps from the principal of its handshake (never the token itself). */
export function credentialOf(principal: Principal): SocketCredential {
  return { kind: principal.kind, tokenId: principal.tokenId, ...definedKeys({ grantId: principal.grantId }) };
}

/** Whether `credential` is one that `revoked` names. */
export function isRevokedBy(credential: SocketCredential, revoked: RevokedCredential): boolean {
  if ("grantId" in revoked) return credential.grantId !== undefined && credential.grantId === revoked.grantId;
  return credential.kind === revoked.kind && credential.tokenId === revoked.tokenId;
}

/**
 * The revocations of the last {@link REVOCATION_MEMORY_MS} on this node (its own and those other
 * nodes announced): a handshake that verified its token just before the revocation and connects
 * just after it would otherwise keep a socket the revocation's disconnect never saw.
 */
export class RecentRevocations {
  readonly #entries: Array<{ at: number; revoked: RevokedCredential }> = [];

  constructor(private readonly now: () => number = Date.now) {}

  add(revoked: RevokedCredential): void {
    this.#prune();
    this.#entries.push({ at: this.now(), revoked });
    // Bounded: a flood of revocations keeps the newest 10,000.
    if (this.#entries.length > 10_000) this.#entries.shift();
  }

  /** Whether `credential` was revoked within the memory window. */
  has(credential: SocketCredential): boolean {
    this.#prune();
    return this.#entries.some((entry) => isRevokedBy(credential, entry.revoked));
  }

  #prune(): void {
    const oldest = this.now() - REVOCATION_MEMORY_MS;
    while (this.#entries.length > 0 && (this.#entries[0]?.at ?? 0) < oldest) this.#entries.shift();
  }
}
