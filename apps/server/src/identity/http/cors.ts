import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ClientRegistry } from "../clients.js";
import { HIDDEN_ROUTE } from "./route-docs.js";

/**
 * CORS for the identity API, so browser apps (public clients) can call it: an origin is allowed when
 * it is the origin of a registered client's redirect URI. Calls carry bearer tokens, never cookies,
 * so credentials are not allowed.
 */
export function allowRegisteredOrigins(app: FastifyInstance, clients: ClientRegistry): void {
  const allowed = (origin: string | undefined): boolean =>
    origin !== undefined && clients.all().some((c) => c.redirect_uris.some((uri) => URL.parse(uri)?.origin === origin));
  const headers = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const origin = request.headers.origin;
    if (!allowed(origin)) return false;
    reply.header("access-control-allow-origin", origin).header("vary", "Origin");
    return true;
  };
  app.addHook("onRequest", async (request, reply) => {
    if (request.method !== "OPTIONS") headers(request, reply);
  });
  app.options("/api/*", HIDDEN_ROUTE, async (request, reply) => {
    if (!headers(request, reply)) return reply.code(403).send({ message: "This origin may not call the identity API.", code: "OVATION_ERR_IDENTITY_BAD_REQUEST" });
    return reply
      .code(204)
      .header("access-control-allow-methods", "GET, POST, DELETE")
      .header("access-control-allow-headers", "Authorization, Content-Type, Accept, Elevated-Access-Token")
      .header("access-control-max-age", "600")
      .send();
  });
}
