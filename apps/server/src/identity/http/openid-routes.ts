import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { IdentityContext } from "../context.js";
import { lookupOAuthToken } from "../oidc/token-verifier.js";
import { bearerFrom } from "../bearer-auth.js";
import { HIDDEN_ROUTE, apiDoc } from "./route-docs.js";

function bearerError(reply: FastifyReply, status: 401 | 403, error: string, description: string): FastifyReply {
  return reply
    .code(status)
    .header("www-authenticate", `Bearer error="${error}", error_description="${description}"`)
    .header("cache-control", "no-store")
    .send({ error, error_description: description });
}

/**
 * `/oauth/userinfo` (OpenID Connect) and `/.well-known/jwks.json` (the public keys that verify
 * access tokens). Userinfo is answered here rather than by oidc-provider, whose userinfo refuses
 * every token issued for the Ovation API resource: any access token of this server whose scopes
 * include `openid` may call it; `profile` adds name and picture, `email` the address.
 */
export async function openidRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = bearerFrom(request);
    const token = raw === null ? null : await lookupOAuthToken(ctx.provider(), raw);
    if (token === null || token.userId === null) return bearerError(reply, 401, "invalid_token", "the access token is missing, unknown, expired or revoked");
    if (!token.scopes.includes("openid")) return bearerError(reply, 403, "insufficient_scope", "the access token lacks the openid scope");
    const user = ctx.users.get(token.userId);
    if (user === null) return bearerError(reply, 401, "invalid_token", "the account of this token no longer exists");
    const claims: Record<string, unknown> = { sub: String(user.id) };
    if (token.scopes.includes("profile")) Object.assign(claims, { name: user.name, preferred_username: user.name, ...(user.avatar ? { picture: user.avatar } : {}) });
    if (token.scopes.includes("email") && user.email !== null) Object.assign(claims, { email: user.email, email_verified: user.email_verified_at !== null });
    return reply.header("cache-control", "no-store").send(claims);
  };
  app.get("/oauth/userinfo", HIDDEN_ROUTE, userinfo);
  app.post("/oauth/userinfo", HIDDEN_ROUTE, userinfo);

  app.get("/.well-known/jwks.json", apiDoc("Public keys that verify access tokens (RS256) and ID tokens (ES256)", { public: true }), async (_request, reply) =>
    reply.header("cache-control", "public, max-age=300").send(ctx.jwks),
  );
}
