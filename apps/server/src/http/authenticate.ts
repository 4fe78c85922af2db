import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { checkBearer } from "../auth/bearer-check.js";
import type { FailedAuthCounter } from "../auth/failed-auth-throttle.js";
import type { Principal } from "../auth/principal.js";
import { hasScope } from "../auth/principal.js";
import type { TokenVerifierChain } from "../auth/token-verifier-chain.js";
import { bearerToken } from "../auth/token-verifier-chain.js";
import { ApiError } from "../errors.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The caller, set by `authenticate`; null on unauthenticated routes. */
    principal: Principal | null;
  }
}

/**
 * A preHandler that requires a valid bearer token (401 `Unauthenticated.` otherwise) holding every
 * scope in `scopes` (403 listing the missing ones otherwise). An address or a credential with too many
 * failed checks in a minute gets 429 for further bad tokens; a valid token always passes (see `checkBearer`).
 */
export function authenticate(verifiers: TokenVerifierChain, throttle: FailedAuthCounter, ...scopes: string[]): preHandlerAsyncHookHandler {
  return async function requireToken(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const check = await checkBearer(verifiers, throttle, request.ip, bearerToken(request.headers.authorization));
    if (!check.ok) {
      if (check.retryAfterSeconds === 0) throw new ApiError("OVATION_ERR_AUTH_UNAUTHENTICATED");
      void reply.header("retry-after", String(check.retryAfterSeconds));
      throw new ApiError("OVATION_ERR_AUTH_TOO_MANY_FAILURES", {
        message: `Too Many Attempts. Retry after ${check.retryAfterSeconds} seconds.`,
      });
    }
    const principal = check.principal;
    const missing = scopes.filter((s) => !hasScope(principal, s));
    if (missing.length > 0) {
      throw new ApiError("OVATION_ERR_AUTH_MISSING_SCOPE", {
        message: `This action is unauthorized: the token lacks the scope ${missing.join(", ")}.`,
        extra: { missing_scopes: missing },
      });
    }
    request.principal = principal;
  };
}

/** The caller of an authenticated route (throws 401 if `authenticate` did not run). */
export function callerOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new ApiError("OVATION_ERR_AUTH_UNAUTHENTICATED");
  return request.principal;
}

/** Resolves a `{user}` path segment (`@me` or the caller's id) to the caller's id; 403 for another user. */
export function resolveUserParam(request: FastifyRequest, user: string): number {
  const caller = callerOf(request);
  if (user === "@me" || user === String(caller.userId)) return caller.userId;
  throw new ApiError("OVATION_ERR_AUTH_NOT_YOUR_USER", { message: `You may only manage your own account (${caller.userId} or @me), not ${user.slice(0, 64)}.` });
}
