import type { FastifyRequest } from "fastify";
import { IdentityError } from "../identity-errors.js";
import type { ElevatedAccessTokenView, EatService } from "./service.js";

/** The header that carries an Elevated Access Token. */
export const EAT_HEADER = "elevated-access-token";

/** The raw EAT of a request, or null when the header is absent or empty. */
export function eatFrom(request: FastifyRequest): string | null {
  const value = request.headers[EAT_HEADER];
  const raw = Array.isArray(value) ? value[0] : value;
  return typeof raw === "string" && raw.trim().length > 0 ? raw.trim() : null;
}

/**
 * Demands a valid EAT of `userId` on a sensitive endpoint: 401 `..._EAT_REQUIRED` without the
 * header, 401 `..._EAT_INVALID` for an unknown, expired, revoked or foreign one.
 */
export function requireEat(eat: EatService, request: FastifyRequest, userId: number): ElevatedAccessTokenView {
  const raw = eatFrom(request);
  if (raw === null) throw new IdentityError("OVATION_ERR_IDENTITY_EAT_REQUIRED");
  const valid = eat.validate(userId, raw);
  if (valid === null) throw new IdentityError("OVATION_ERR_IDENTITY_EAT_INVALID");
  return valid;
}
