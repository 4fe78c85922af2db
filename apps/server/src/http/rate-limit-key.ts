import type { FastifyRequest } from "fastify";
import { sha256Hex } from "../crypto/secrets.js";

/** `<scheme> <credential>` with any spacing around and between; the scheme's case does not matter (RFC 9110). */
const AUTHORIZATION = /^\s*([A-Za-z][\w!#$%&'*+.^`|~-]*)\s+(\S+)\s*$/;

/**
 * The bucket of the global per-minute rate limit: the credential of the `Authorization` header (its
 * scheme lower-cased, spacing dropped, then hashed), so `Bearer x`, `bearer  x` and `BEARER x ` share
 * one bucket; any header that is no `<scheme> <credential>` pair, and a request without one, count by
 * client address. A caller cannot get more than one bucket per token by spelling it differently.
 */
export function rateLimitKey(request: Pick<FastifyRequest, "headers" | "ip">): string {
  const match = AUTHORIZATION.exec(request.headers.authorization ?? "");
  if (!match?.[1] || !match[2]) return `ip:${request.ip}`;
  return `token:${sha256Hex(`${match[1].toLowerCase()} ${match[2]}`)}`;
}
