import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { botUserParam, signingSecretSchema } from "@ovation/core/api";
import { resolveUserParam } from "../authenticate.js";
import { authErrorResponses, errorBodySchema } from "../types.js";
import type { ZodApp } from "../types.js";

/**
 * The secret that signs the bot's outbound calls (`proxy_pass`, `json`), at
 * `/v1/bots/{user}/signing-secret`: the account owner's alone (never a manager's) and behind an
 * elevated access token, so it stays with the server's auth rather than with the commands module,
 * whose routes the core declares.
 */
export async function signingSecretRoutes(app: ZodApp): Promise<void> {
  const { repos } = app.ovation;
  const host = app.ovation.commands;
  const auth = app.ovation.authenticate("chatbot:manage:commands");
  // The signing secret is the owner's alone: a manager is refused before any elevated-token check.
  const ownerOnly = async (request: FastifyRequest): Promise<void> => void resolveUserParam(request, String((request.params as { user?: unknown }).user), { ownerOnly: true });
  const authWithEat = [auth, ownerOnly, app.ovation.requireEat];
  const security = [{ bearerAuth: [] }];
  const tags = ["bot commands"];
  const userParams = z.object({ user: botUserParam });

  const presentSecret = (secret: string) => ({
    secret,
    algorithm: "HMAC-SHA256" as const,
    headers: { timestamp: "X-Ovation-Timestamp" as const, signature: "X-Ovation-Signature" as const },
  });

  app.get(
    "/v1/bots/:user/signing-secret",
    {
      preHandler: authWithEat,
      schema: {
        tags,
        security,
        summary: "The secret that signs the bot's outbound calls",
        description: "Needs an `Elevated-Access-Token` when the account has an email address (always when the identity module runs on another host). `proxy_pass` and `json` requests carry `X-Ovation-Signature: sha256=<hex HMAC-SHA256 of timestamp + \".\" + body>` made with this secret; see docs/outbound.md.",
        params: userParams,
        response: { 200: signingSecretSchema, ...authErrorResponses, 503: errorBodySchema },
      },
    },
    async (request) => presentSecret(repos.signingSecrets.get(resolveUserParam(request, request.params.user, { ownerOnly: true }))),
  );

  app.post(
    "/v1/bots/:user/signing-secret/rotate",
    {
      preHandler: authWithEat,
      schema: { tags, security, summary: "Replace the signing secret (after a leak)", params: userParams, response: { 200: signingSecretSchema, ...authErrorResponses, 503: errorBodySchema } },
    },
    async (request) => {
      const userId = resolveUserParam(request, request.params.user, { ownerOnly: true });
      const secret = repos.signingSecrets.rotate(userId);
      host.reload(userId);
      await repos.store.persisted();
      return presentSecret(secret);
    },
  );
}
