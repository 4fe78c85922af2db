import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { MANAGER_ROLE_SCOPES } from "@ovation/core/api";
import type { ManagerRole } from "@ovation/core/api";
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
    /** The scopes the route demanded of the token, set by `authenticate`. */
    routeScopes: readonly string[] | null;
    /** Set by `resolveUserParam` when the caller acts on a channel it manages (the audit hook reads it). */
    managing: ManagedAccess | null;
  }
}

/** A manager's call on a streamer's `{user}` route. */
export interface ManagedAccess {
  streamerId: number;
  role: ManagerRole;
  /** False when the role did not cover the route (the call was refused). */
  allowed: boolean;
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
    request.routeScopes = scopes;
  };
}

/** The caller of an authenticated route (throws 401 if `authenticate` did not run). */
export function callerOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new ApiError("OVATION_ERR_AUTH_UNAUTHENTICATED");
  return request.principal;
}

/**
 * Resolves a `{user}` path segment to the user the route acts on: `@me` or the caller's id is the
 * caller. Another user's id is allowed only to a manager of that channel whose role covers every
 * scope the route demanded (the token must hold them too: `authenticate` checked that), so a
 * manager gets the scopes its token and its role share, never more. `ownerOnly` routes (secrets)
 * refuse managers. 403 otherwise.
 */
export function resolveUserParam(request: FastifyRequest, user: string, options: { ownerOnly?: boolean } = {}): number {
  const caller = callerOf(request);
  if (user === "@me" || user === String(caller.userId)) return caller.userId;
  const streamerId = /^[1-9][0-9]{0,15}$/.test(user) ? Number(user) : null;
  const role = streamerId === null ? null : request.server.ovation.repos.managers.roleOf(streamerId, caller.userId);
  if (streamerId === null || role === null) {
    throw new ApiError("OVATION_ERR_AUTH_NOT_YOUR_USER", { message: `You may only manage your own account (${caller.userId} or @me) or a channel you manage, not ${user.slice(0, 64)}.` });
  }
  const allowedScopes = MANAGER_ROLE_SCOPES[role];
  const missing = options.ownerOnly ? [] : (request.routeScopes ?? []).filter((scope) => !allowedScopes.includes(scope));
  const allowed = !options.ownerOnly && missing.length === 0 && (request.routeScopes ?? []).length > 0;
  request.managing = { streamerId, role, allowed };
  if (options.ownerOnly) throw new ApiError("OVATION_ERR_AUTH_OWNER_ONLY", { message: "Only the channel's owner may do this; managers never may." });
  if (!allowed) {
    throw new ApiError("OVATION_ERR_AUTH_ROLE_FORBIDS", {
      message: `This action is unauthorized: your role on this channel (${role}) does not cover ${missing.join(", ") || "this endpoint"}.`,
      extra: { role, missing_scopes: missing },
    });
  }
  return streamerId;
}
