import { z } from "zod";
import { MANAGER_ROLE_SCOPES, managedChannelSchema, managerAuditSchema, managerGrantBodySchema, managerViewSchema } from "@ovation/core/api";
import { callerOf } from "../authenticate.js";
import { ApiError } from "../../errors.js";
import type { ManagerGrant } from "../../store/managers.js";
import { authErrorResponses, errorBodySchema } from "../types.js";
import type { ZodApp } from "../types.js";

const tags = ["managers"];
const security = [{ bearerAuth: [] }];

/**
 * Managers: `GET/POST /v1/managers`, `DELETE /v1/managers/{user}` and `GET /v1/managers/audit` for
 * the streamer (always the caller's own channel: a manager never reaches them for another's), and
 * `GET /v1/managed-channels` for the manager. See docs/managers.md.
 */
export async function managerRoutes(app: ZodApp): Promise<void> {
  const { repos } = app.ovation;
  const read = app.ovation.authenticate("user:read");
  const manage = app.ovation.authenticate("user:manage");

  const present = (grant: ManagerGrant): z.infer<typeof managerViewSchema> => ({
    user_id: grant.manager_id,
    name: repos.users.get(grant.manager_id)?.name ?? `user-${grant.manager_id}`,
    role: grant.role,
    scopes: [...MANAGER_ROLE_SCOPES[grant.role]],
    granted_at: grant.granted_at,
  });

  app.get(
    "/v1/managers",
    { preHandler: read, schema: { tags, security, summary: "The managers of your channel", response: { 200: z.object({ data: z.array(managerViewSchema) }), ...authErrorResponses } } },
    async (request) => ({ data: repos.managers.list(callerOf(request).userId).map(present) }),
  );

  app.post(
    "/v1/managers",
    {
      preHandler: manage,
      schema: {
        tags,
        security,
        summary: "Grant an account a role on your channel (or change its role)",
        description: "`editor`: alerts, overlays and commands; `moderator`: timers, giveaways, auto-moderation and counters. A manager acts on your `/v1/bots/{user}/...` routes with your id as `{user}`.",
        body: managerGrantBodySchema,
        response: { 200: managerViewSchema, 201: managerViewSchema, ...authErrorResponses },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { user, role } = request.body;
      const account = typeof user === "number" ? repos.users.get(user) : /^[1-9][0-9]{0,15}$/.test(user) ? repos.users.get(Number(user)) ?? repos.users.findByName(user) : repos.users.findByName(user);
      if (!account || account.name.startsWith("deleted-user-")) {
        throw new ApiError("OVATION_ERR_MANAGERS_UNKNOWN_USER", { message: `No account named ${String(user).slice(0, 100)}.`, errors: { user: ["names no account"] } });
      }
      if (account.id === caller.userId) throw new ApiError("OVATION_ERR_MANAGERS_SELF", { errors: { user: ["is you: you already own this channel"] } });
      const had = repos.managers.roleOf(caller.userId, account.id);
      const grant = repos.managers.grant(caller.userId, account.id, role);
      repos.managers.record(caller.userId, {
        actor_id: caller.userId,
        actor_name: repos.users.get(caller.userId)?.name ?? "",
        role: "owner",
        action: had === null ? "managers.grant" : "managers.change_role",
        target: `${account.name} (${account.id}) as ${role}`,
        status: had === null ? 201 : 200,
      });
      await repos.store.persisted();
      return reply.code(had === null ? 201 : 200).send(present(grant));
    },
  );

  app.delete(
    "/v1/managers/:user",
    {
      preHandler: manage,
      schema: { tags, security, summary: "Revoke a manager's role", params: z.object({ user: z.coerce.number().int().positive() }), response: { 204: z.null(), 404: errorBodySchema, ...authErrorResponses } },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const managerId = request.params.user;
      const role = repos.managers.roleOf(caller.userId, managerId);
      if (role === null || !repos.managers.revoke(caller.userId, managerId)) throw new ApiError("OVATION_ERR_MANAGERS_NOT_FOUND");
      repos.managers.record(caller.userId, {
        actor_id: caller.userId,
        actor_name: repos.users.get(caller.userId)?.name ?? "",
        role: "owner",
        action: "managers.revoke",
        target: `${repos.users.get(managerId)?.name ?? `user-${managerId}`} (${managerId}) was ${role}`,
        status: 204,
      });
      await repos.store.persisted();
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/v1/managers/audit",
    {
      preHandler: read,
      schema: {
        tags,
        security,
        summary: "Who changed what on your channel: every write by a manager (refusals too) and every grant or revocation, newest first",
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
        response: { 200: managerAuditSchema, ...authErrorResponses },
      },
    },
    async (request) => ({ data: repos.managers.auditLog(callerOf(request).userId, request.query.limit) }),
  );

  app.get(
    "/v1/managed-channels",
    { preHandler: read, schema: { tags, security, summary: "The channels you manage, with your role on each", response: { 200: z.object({ data: z.array(managedChannelSchema) }), ...authErrorResponses } } },
    async (request) => ({
      data: repos.managers.channelsOf(callerOf(request).userId).flatMap(({ streamer_id, grant }) => {
        const streamer = repos.users.get(streamer_id);
        if (!streamer) return [];
        return [{ user_id: streamer_id, name: streamer.name, avatar: streamer.avatar, role: grant.role, scopes: [...MANAGER_ROLE_SCOPES[grant.role]], granted_at: grant.granted_at }];
      }),
    }),
  );
}
