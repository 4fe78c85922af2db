import type { FailedAuthCounter } from "./failed-auth-throttle.js";
import type { Principal } from "./principal.js";
import { sha256Hex } from "../crypto/secrets.js";
import type { TokenVerifierChain } from "./token-verifier-chain.js";

/** The throttle key of failures from a client address (shared by every kind of credential). */
export function sourceThrottleKey(address: string): string {
  return `source:${address}`;
}

/** What {@link checkBearer} decided. */
export type BearerCheck =
  | { ok: true; principal: Principal }
  /** No valid credential; `retryAfterSeconds` > 0 when the source or the credential is throttled (answer 429). */
  | { ok: false; retryAfterSeconds: number };

/**
 * Checks a bearer token (or its absence) from `source` (a client address) against the verifiers, with
 * failures counted per source and per credential (its sha256) in `throttle`. A valid token passes
 * without reading the counters (the lookup is a sha256 and a map lookup, or the introspection
 * cache in remote identity mode, which also keeps refusals; with Redis this saves every call a round
 * trip). Otherwise: a credential that failed too often gets 429; a source that failed too often gets
 * 429 for every further missing or invalid token, yet a VALID token from that source still passes,
 * so nobody can lock another user out by sending bad tokens from a shared address (NAT, proxy).
 * Shared by the HTTP `authenticate` preHandler and the socket handshake.
 */
export async function checkBearer(verifiers: TokenVerifierChain, throttle: FailedAuthCounter, source: string, token: string | null): Promise<BearerCheck> {
  const principal = token === null ? null : await verifiers.verify(token);
  if (principal) return { ok: true, principal };
  const sourceKey = sourceThrottleKey(source);
  const credentialKey = token === null ? null : `credential:${sha256Hex(token)}`;
  // Both read at once: one round trip when the counters are in Redis.
  const [credentialWait, sourceWait] = await Promise.all([credentialKey === null ? 0 : throttle.retryAfterSeconds(credentialKey), throttle.retryAfterSeconds(sourceKey)]);
  if (credentialWait > 0) return { ok: false, retryAfterSeconds: credentialWait };
  if (token === null && sourceWait > 0) return { ok: false, retryAfterSeconds: sourceWait };
  await Promise.all([throttle.recordFailure(sourceKey), credentialKey === null ? undefined : throttle.recordFailure(credentialKey)]);
  return { ok: false, retryAfterSeconds: sourceWait };
}
