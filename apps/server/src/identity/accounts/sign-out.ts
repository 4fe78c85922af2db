import type { IdentityContext } from "../context.js";
import { removeAccountArtifacts } from "../oidc/adapter.js";

/**
 * Signs every browser of a user out: the identity sessions and the authorization server's
 * sessions, so `prompt=none` no longer returns a code. Used after a password change or reset and
 * after a second factor is removed. Apps the user approved keep their grants and tokens (they are
 * revoked separately, or all at once by deleting the account); see docs/identity.md.
 */
export async function signOutEverywhere(ctx: IdentityContext, userId: number): Promise<void> {
  await ctx.sessions.destroyAllForUser(userId);
  await removeAccountArtifacts(ctx.oidcStorage, userId, "sessions");
}
