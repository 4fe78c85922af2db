import { bearerToken } from "../auth/token-verifier-chain.js";

/**
 * The bearer token a socket's handshake carries: `auth.token` (with or without `Bearer `), else the
 * `Authorization` header; null when neither is a string. Used to ask again whether it still holds.
 */
export function handshakeBearer(handshake: { auth: unknown; headers: { authorization?: string | undefined } }): string | null {
  const auth = handshake.auth as { token?: unknown } | null | undefined;
  if (typeof auth?.token === "string") return auth.token.replace(/^Bearer\s+/i, "").trim();
  return bearerToken(handshake.headers.authorization);
}
