import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { botUserParam } from "@ovation/core/api";
import { BotRouteError, definedKeys, storedOrRouteError } from "@ovation/core";
import type { BotModuleRoute } from "@ovation/core";
import { resolveUserParam } from "../authenticate.js";
import { channelUserOf } from "../channel-routes.js";
import { errorBodySchema } from "../types.js";
import type { ZodApp } from "../types.js";

/**
 * Mounts the API routes the bot runtime's modules declare, at `/v1/bots/{user}/<path>` (and at
 * `/v1/<path>` for the caller too when the route says `callerPath`): the bearer
 * token needs the route's scope, `{user}` is the caller or a channel they manage with a role covering
 * that scope, params/query/body are validated with the route's zod schemas, a change is answered
 * once the store has it on disk (503 `OVATION_ERR_STORE_WRITE_FAILED` when that write failed), and a
 * thrown `BotRouteError` answers `{message, code, errors?}` with its status. The OpenAPI document
 * lists the error statuses each route can answer ({@link errorStatuses}).
 */
export async function botModuleRoutes(app: ZodApp): Promise<void> {
  for (const module of app.ovation.botModules.runtime.modules()) {
    for (const route of module.routes ?? []) mount(app, module.name, route);
  }
}

function mount(app: ZodApp, moduleName: string, route: BotModuleRoute): void {
  const userParam = route.userParam ?? "user";
  const userParams = z.object({ [userParam]: botUserParam });
  const params = route.params instanceof z.ZodObject ? userParams.extend(route.params.shape) : userParams;
  // A `callerPath` route is also at `/v1/<path>`, acting on the caller (channelUserOf reads either form).
  const forms = [
    ...(route.callerPath === true ? [{ url: `/v1/${route.path}`, params: route.params instanceof z.ZodObject ? route.params : z.object({}) }] : []),
    { url: `/v1/bots/:${userParam}/${route.path}`, params },
  ];
  for (const form of forms) mountAt(app, moduleName, route, form);
}

function mountAt(app: ZodApp, moduleName: string, route: BotModuleRoute, { url, params }: { url: string; params: z.ZodObject }): void {
  const userParam = route.userParam ?? "user";
  const status = route.status ?? 200;
  const ownerOnly = route.access === "owner-elevated";
  const response: Record<number, z.ZodType> = { [status]: status === 204 ? z.null() : (route.response ?? z.unknown()) };
  for (const error of errorStatuses(route, params)) response[error] = errorBodySchema;
  const auth = app.ovation.authenticate(route.scope);
  // An owner-only route refuses a manager before any elevated-token check.
  const owner = async (request: FastifyRequest): Promise<void> => {
    const user = (request.params as Record<string, unknown>)[userParam];
    if (typeof user === "string") resolveUserParam(request, user, { ownerOnly: true });
  };
  app.route({
    method: route.method,
    url,
    preHandler: ownerOnly ? [auth, owner, app.ovation.requireEat] : auth,
    schema: {
      tags: [route.tag ?? `bot ${moduleName}`],
      security: [{ bearerAuth: [] }],
      summary: route.summary,
      ...definedKeys({ description: route.description }),
      params,
      ...definedKeys({ querystring: route.query, body: route.body }),
      response,
    },
    handler: async (request, reply) => {
      const { [userParam]: user, ...rest } = request.params as Record<string, string | undefined>;
      // On the `/v1/bots/{user}/` form `{user}` is resolved (403 for a stranger, a role short of the
      // scope, or a manager on an owner-only route); on a `callerPath` form the route acts on the caller.
      const channel = String(user === undefined ? channelUserOf(request) : resolveUserParam(request, user, { ownerOnly }));
      const context = app.ovation.botModules.runtime.context;
      // A change is answered once it is stored, as the host's own routes do (503 when it could not be).
      const stored = () => (route.method === "GET" || route.readOnly === true ? undefined : storedOrRouteError(app.ovation.repos.store.persisted(), request.log, { route: `${route.method} ${url}`, channel }));
      try {
        const result = await route.handle({ channel, params: rest as Record<string, string>, query: (request.query ?? {}) as Record<string, string | undefined>, body: request.body, context });
        await stored();
        return status === 204 ? reply.code(204).send(null) : reply.code(status).send(result);
      } catch (caught) {
        if (!(caught instanceof BotRouteError)) throw caught;
        let error = caught;
        // What the route changed before it failed is on disk before the answer too.
        if (error.status !== 503) await stored()?.catch((failed: unknown) => void (error = failed as BotRouteError));
        return reply
          .code(error.status)
          .type("application/json")
          .send({ message: error.message, code: error.code, ...definedKeys({ errors: error.errors, details: Object.keys(error.details).length > 0 ? error.details : undefined }) });
      }
    },
  });
}

/**
 * The error statuses a module route can answer, for its OpenAPI operation: 401/403/429 from the
 * bearer token's check (and its rate limits), 422 when a path parameter, the query or the body is
 * validated, 400 for a body that is not JSON (every method but GET reads one), 503 for a change the
 * store could not write (every method but GET, unless `readOnly`) and for an owner-elevated
 * route's identity check, and the statuses the route says its handler throws (`errors`).
 */
function errorStatuses(route: BotModuleRoute, params: z.ZodObject): number[] {
  const statuses = new Set<number>([401, 403, 429, ...(route.errors ?? [])]);
  if (Object.keys(params.shape).length > 0 || route.query !== undefined || route.body !== undefined) statuses.add(422);
  if (route.method !== "GET") statuses.add(400);
  if (route.method !== "GET" && route.readOnly !== true) statuses.add(503);
  if (route.access === "owner-elevated") statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}
