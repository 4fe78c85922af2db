import { z } from "zod";
import { botUserParam, timerViewSchema } from "@ovation/core/api";
import { timerSchema } from "@ovation/core";
import type { Timer } from "@ovation/core";
import { resolveUserParam } from "../authenticate.js";
import { ApiError } from "../../errors.js";
import { issuesToApiError } from "../issue-errors.js";
import { timerInput } from "../../commands/bot-modules-host.js";
import type { TimerRecord } from "../../store/bot-modules.js";
import { authErrorResponses, errorBodySchema, idParam } from "../types.js";
import type { ZodApp } from "../types.js";

/**
 * Timers of `{user}`'s bot (scope `chatbot:manage:timers`): list, create, read, replace, delete.
 * A timer's message may be a template, compiled when saved and run in the command sandbox.
 */
export async function timerRoutes(app: ZodApp): Promise<void> {
  const { repos, botModules } = app.ovation;
  const auth = app.ovation.authenticate("chatbot:manage:timers");
  const security = [{ bearerAuth: [] }];
  const tags = ["bot timers"];
  const userParams = z.object({ user: botUserParam });
  const itemParams = userParams.extend({ id: idParam });
  const notFound = () => new ApiError("OVATION_ERR_TIMERS_NOT_FOUND");

  const present = (record: TimerRecord) => {
    const status = botModules.timers.status(String(record.user_id)).find((s) => s.name.toLowerCase() === record.name.toLowerCase());
    const platforms = (status?.platforms ?? []).map((p) => ({ ...p, next_post_at: p.last_post_at + record.interval_minutes * 60_000 }));
    const live = app.ovation.commands.runtime.isLive(String(record.user_id));
    return { id: record.id, ...timerInput(record), status: platforms, live, created_at: record.created_at, updated_at: record.updated_at };
  };
  const prepare = (userId: number, body: unknown, exceptId: number | null): Timer => {
    let record: Timer;
    try {
      record = botModules.timers.prepare(body).record;
    } catch (error) {
      return issuesToApiError(error, "message");
    }
    const others = repos.timers.listForUser(userId).filter((t) => t.id !== exceptId);
    if (others.some((t) => t.name.toLowerCase() === record.name.toLowerCase())) {
      throw new ApiError("OVATION_ERR_TIMERS_NAME_TAKEN", { errors: { name: [`The name has already been taken: another timer is named ${record.name}.`] } });
    }
    if (exceptId === null && others.length >= 50) {
      throw new ApiError("OVATION_ERR_HTTP_VALIDATION", { message: "A bot has at most 50 timers.", errors: { name: ["A bot has at most 50 timers."] } });
    }
    return record;
  };
  const saved = async (userId: number) => {
    botModules.reloadTimers(userId);
    await repos.store.persisted();
  };

  app.get(
    "/v1/bots/:user/timers",
    { preHandler: auth, schema: { tags, security, summary: "List the timers", params: userParams, response: { 200: z.object({ data: z.array(timerViewSchema) }), ...authErrorResponses } } },
    async (request) => ({ data: repos.timers.listForUser(resolveUserParam(request, request.params.user)).map(present) }),
  );

  app.post(
    "/v1/bots/:user/timers",
    {
      preHandler: auth,
      schema: {
        tags,
        security,
        summary: "Create a timer",
        description: "Posts `message` every `interval_minutes` while the stream is online, on each platform where at least `min_chat_lines` chat lines were seen since its last post there.",
        params: userParams,
        body: timerSchema,
        response: { 201: timerViewSchema, ...authErrorResponses },
      },
    },
    async (request, reply) => {
      const userId = resolveUserParam(request, request.params.user);
      const record = repos.timers.create(userId, prepare(userId, request.body, null));
      await saved(userId);
      return reply.code(201).send(present(record));
    },
  );

  app.get(
    "/v1/bots/:user/timers/:id",
    { preHandler: auth, schema: { tags, security, summary: "Get a timer", params: itemParams, response: { 200: timerViewSchema, 404: errorBodySchema, ...authErrorResponses } } },
    async (request) => {
      const record = repos.timers.getForUser(resolveUserParam(request, request.params.user), request.params.id);
      if (!record) throw notFound();
      return present(record);
    },
  );

  app.put(
    "/v1/bots/:user/timers/:id",
    { preHandler: auth, schema: { tags, security, summary: "Replace a timer", params: itemParams, body: timerSchema, response: { 200: timerViewSchema, 404: errorBodySchema, ...authErrorResponses } } },
    async (request) => {
      const userId = resolveUserParam(request, request.params.user);
      if (!repos.timers.getForUser(userId, request.params.id)) throw notFound();
      const fields = prepare(userId, request.body, request.params.id);
      const record = repos.timers.update(userId, request.params.id, (r) => Object.assign(r, structuredClone(fields)));
      if (!record) throw notFound();
      await saved(userId);
      return present(record);
    },
  );

  app.delete(
    "/v1/bots/:user/timers/:id",
    { preHandler: auth, schema: { tags, security, summary: "Delete a timer", params: itemParams, response: { 204: z.null(), 404: errorBodySchema, ...authErrorResponses } } },
    async (request, reply) => {
      const userId = resolveUserParam(request, request.params.user);
      if (!repos.timers.remove(userId, request.params.id)) throw notFound();
      await saved(userId);
      return reply.code(204).send(null);
    },
  );
}
