import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { bearerToken } from "../auth/token-verifier-chain.js";
import type { Principal, TokenVerifier } from "../auth/principal.js";
import { ApiError } from "../errors.js";
import { IdentityError } from "../identity/index.js";
import type { EatValidator } from "../identity/index.js";
import type { UsersRepository } from "../store/users.js";
import { callerOf } from "./authenticate.js";

/** The header that carries an Elevated Access Token. */
export const EAT_HEADER = "elevated-access-token";

/** Where the main API checks EATs: set once the identity module is known (local) or configured (remote). */
export interface EatPolicy {
  /** `remote`: every sensitive call needs an EAT; `local`: only accounts with an email address (a code can be mailed). */
  readonly mode: "local" | "remote";
  /** The validator; null while no identity module runs here (then no EAT can exist and none is asked for). */
  validator(): EatValidator | null;
  readonly users: UsersRepository;
}

/**
 * Turns an unreachable remote identity host (the identity module's 503 from introspection or the
 * HTTP EAT check) into the main API's 503; other errors pass through.
 */
export function asApiError(error: unknown): unknown {
  if (error instanceof IdentityError && error.status === 503) {
    return new ApiError("OVATION_ERR_AUTH_IDENTITY_UNAVAILABLE", { cause: error });
  }
  return error;
}

/** A bearer verifier whose "identity host unreachable" failures become the main API's 503. */
export function withApiErrors(verifier: TokenVerifier): TokenVerifier {
  return {
    name: verifier.name,
    async verify(rawToken: string): Promise<Principal | null> {
      try {
        return await verifier.verify(rawToken);
      } catch (error) {
        throw asApiError(error);
      }
    },
  };
}

function eatOf(request: FastifyRequest): string | null {
  const value = request.headers[EAT_HEADER];
  const raw = Array.isArray(value) ? value[0] : value;
  return typeof raw === "string" && raw.trim().length > 0 ? raw.trim() : null;
}

/**
 * A preHandler (after `authenticate`) for sensitive endpoints: demands a valid `Elevated-Access-Token`
 * of the caller when the identity module's rule asks for one (remote mode always; local mode when the
 * account has an email address). 401 `OVATION_ERR_AUTH_EAT_REQUIRED` without the header, 401
 * `OVATION_ERR_AUTH_EAT_INVALID` for a bad one, 503 `OVATION_ERR_AUTH_IDENTITY_UNAVAILABLE` when the
 * remote identity host does not answer.
 */
export function requireEat(policy: EatPolicy): preHandlerAsyncHookHandler {
  return async function checkEat(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const caller = callerOf(request);
    const validator = policy.validator();
    if (validator === null) return;
    if (policy.mode === "local" && (policy.users.get(caller.userId)?.email ?? null) === null) return;
    const eat = eatOf(request);
    if (eat === null) throw new ApiError("OVATION_ERR_AUTH_EAT_REQUIRED");
    let valid: Awaited<ReturnType<EatValidator>>;
    try {
      valid = await validator({ userId: caller.userId, bearerToken: bearerToken(request.headers.authorization) ?? "", eat });
    } catch (error) {
      throw asApiError(error);
    }
    if (valid === null) throw new ApiError("OVATION_ERR_AUTH_EAT_INVALID");
  };
}
