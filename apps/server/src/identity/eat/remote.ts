import { IdentityError } from "../identity-errors.js";
import type { ElevatedAccessTokenView } from "./service.js";

/** Checks an EAT for the main API: the record when valid for the bearer's user, else null. */
export type EatValidator = (input: { userId: number; bearerToken: string; eat: string }) => Promise<ElevatedAccessTokenView | null>;

/**
 * The main API's EAT check: in-process through the identity module when it runs here, otherwise over
 * HTTP `GET {idUrl}/api/eat/verify` with both headers (200 valid, 401 not). A remote that cannot be
 * reached is a 503, never a silent pass.
 */
export function createEatValidator(source: { local: { validateEat(userId: number, raw: string): ElevatedAccessTokenView | null } } | { idUrl: string; timeoutMs?: number }): EatValidator {
  if ("local" in source) {
    const { local } = source;
    return async ({ userId, eat }) => local.validateEat(userId, eat);
  }
  const url = `${source.idUrl.replace(/\/+$/, "")}/api/eat/verify`;
  const timeoutMs = source.timeoutMs ?? 5000;
  return async ({ userId, bearerToken, eat }) => {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { authorization: `Bearer ${bearerToken}`, "elevated-access-token": eat, accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new IdentityError("OVATION_ERR_IDENTITY_REMOTE_UNAVAILABLE", { cause });
    }
    if (response.status === 401) return null;
    if (response.status !== 200) throw new IdentityError("OVATION_ERR_IDENTITY_REMOTE_UNAVAILABLE", { message: `The identity service answered HTTP ${response.status}.` });
    const body = (await response.json()) as Partial<ElevatedAccessTokenView>;
    if (body.user_id !== userId || typeof body.id !== "string" || typeof body.expires_at !== "string") return null;
    return { id: body.id, user_id: body.user_id, created_at: String(body.created_at ?? ""), expires_at: body.expires_at };
  };
}
