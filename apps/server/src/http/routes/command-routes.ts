import type { FastifyRequest } from "fastify";
import { z } from "zod";
import {
  botUserParam,
  commandTestBodySchema as testBodySchema,
  commandTestResultSchema as testResultSchema,
  commandViewSchema,
  signingSecretSchema,
} from "@ovation/core/api";
import { CHAT_PATTERN_LIMITS, CommandRegex, botCommandSchema, patternSetProblem } from "@ovation/core";
import type { BotCommand, CommandOutcome } from "@ovation/core";
import { resolveUserParam } from "../authenticate.js";
import { ApiError } from "../../errors.js";
import { issuesToApiError } from "../issue-errors.js";
import { dryRunChatEvent } from "./dry-run-event.js";
import { commandFields } from "../../store/commands.js";
import type { CommandRecord } from "../../store/records.js";
import { USER_CAPS } from "../../store/user-caps.js";
import { authErrorResponses, errorBodySchema, idParam } from "../types.js";
import type { ZodApp } from "../types.js";

/** The API view of a command. */
export function presentCommand(record: CommandRecord): z.infer<typeof commandViewSchema> {
  return {
    id: record.id,
    ...commandFields(record),
    commands: [record.command, ...record.command_aliases],
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

function describeOutcome(outcome: CommandOutcome): z.infer<typeof testResultSchema> {
  switch (outcome.status) {
    case "not_command":
    case "no_match":
      return { matched: null, text: null, send_as: null, error: null, status: outcome.status };
    case "permission":
      return { matched: outcome.command, text: null, send_as: null, error: `permission: the command needs level ${outcome.required}, the caller has ${outcome.caller}`, status: outcome.status };
    case "disabled":
      return { matched: outcome.command, text: null, send_as: null, error: `disabled: enable_when is ${outcome.enable_when} and the stream is ${outcome.live ? "online" : "offline"}`, status: outcome.status };
    case "cooldown":
      return { matched: outcome.command, text: null, send_as: null, error: `cooldown: ${outcome.scope} cooldown, ${outcome.remaining_seconds} s left`, status: outcome.status };
    case "price":
      return { matched: outcome.command, text: outcome.action?.text ?? null, send_as: outcome.action?.send_as ?? null, error: `price: costs ${outcome.price}, the caller has ${outcome.balance}`, status: outcome.status };
    case "empty":
      return { matched: outcome.command, text: "", send_as: null, error: null, status: outcome.status };
    case "error":
      return { matched: outcome.command, text: outcome.action?.text ?? null, send_as: outcome.action?.send_as ?? null, error: outcome.error, status: outcome.status };
    case "sent":
      return { matched: outcome.command, text: outcome.action.text, send_as: outcome.action.send_as, error: null, status: outcome.status };
  }
}

/** A stored regex compiled (from the compile cache), or nothing when it no longer compiles. */
function compiledOrNone(source: string): CommandRegex[] {
  try {
    return [CommandRegex.compile(source)];
  } catch {
    return [];
  }
}

function commandFailure(error: unknown): never {
  return issuesToApiError(error, "response");
}

/**
 * Bot commands of `{user}` (the caller's id or `@me`; scope `chatbot:manage:commands`): list,
 * create, read, replace, delete, and a dry run through the real permission/cooldown/sandbox path.
 */
export async function commandRoutes(app: ZodApp): Promise<void> {
  const { repos } = app.ovation;
  const host = app.ovation.commands;
  const auth = app.ovation.authenticate("chatbot:manage:commands");
  // The signing secret is the owner's alone: a manager is refused before any elevated-token check.
  const ownerOnly = async (request: FastifyRequest): Promise<void> => void resolveUserParam(request, String((request.params as { user?: unknown }).user), { ownerOnly: true });
  const authWithEat = [auth, ownerOnly, app.ovation.requireEat];
  const security = [{ bearerAuth: [] }];
  const tags = ["bot commands"];
  const userParams = z.object({ user: botUserParam });
  const itemParams = z.object({ user: botUserParam, id: idParam });
  const notFound = () => new ApiError("OVATION_ERR_COMMANDS_NOT_FOUND");

  /** Validates and compiles a command, and checks its names against the user's other commands. */
  const prepare = (userId: number, input: BotCommand, exceptId: number | null): BotCommand => {
    let record: BotCommand;
    try {
      record = host.runtime.prepare(input).record;
    } catch (error) {
      commandFailure(error);
    }
    const taken = new Map<string, string>();
    for (const other of repos.commands.listForUser(userId)) {
      if (other.id === exceptId) continue;
      for (const name of [other.command, ...other.command_aliases]) taken.set(name.toLowerCase(), other.command);
    }
    if (record.command_regex !== null) {
      const regexes = [record.command_regex, ...repos.commands.listForUser(userId).filter((other) => other.id !== exceptId).flatMap((other) => (other.command_regex ? [other.command_regex] : []))];
      const tooMuch = patternSetProblem("commands with a command_regex", regexes.flatMap(compiledOrNone), {
        maxCount: CHAT_PATTERN_LIMITS.regexCommands,
        countLimit: "regexCommands",
        maxTotal: CHAT_PATTERN_LIMITS.commandProgramTotal,
        totalLimit: "commandProgramTotal",
      });
      if (tooMuch !== null) {
        const message = `You would have ${tooMuch}.`;
        throw new ApiError("OVATION_ERR_COMMANDS_LIMIT_REACHED", { message, errors: { command_regex: [message] } });
      }
    }
    const clash = record.commands.find((name) => taken.has(name.toLowerCase()));
    if (clash !== undefined) {
      const message = `The command has already been taken: !${clash} is used by !${taken.get(clash.toLowerCase())}.`;
      throw new ApiError("OVATION_ERR_COMMANDS_NAME_TAKEN", { message, errors: { [clash.toLowerCase() === record.command.toLowerCase() ? "command" : "command_aliases"]: [message] } });
    }
    return record;
  };

  app.get(
    "/v1/bots/:user/commands",
    { preHandler: auth, schema: { tags, security, summary: "List the commands", params: userParams, response: { 200: z.object({ data: z.array(commandViewSchema) }), ...authErrorResponses } } },
    async (request) => ({ data: repos.commands.listForUser(resolveUserParam(request, request.params.user)).map(presentCommand) }),
  );

  app.post(
    "/v1/bots/:user/commands",
    {
      preHandler: auth,
      schema: {
        tags,
        security,
        summary: "Register a command",
        description: "`response` is plain text or a Twig-syntax template. Fields left out take their defaults.",
        params: userParams,
        body: botCommandSchema,
        response: { 201: commandViewSchema, ...authErrorResponses },
      },
    },
    async (request, reply) => {
      const userId = resolveUserParam(request, request.params.user);
      const count = repos.commands.listForUser(userId).length;
      if (count >= USER_CAPS.commands) {
        const message = `You have ${count} commands; the limit is ${USER_CAPS.commands} per user (commands). Delete one first.`;
        throw new ApiError("OVATION_ERR_COMMANDS_LIMIT_REACHED", { message, errors: { command: [message] } });
      }
      const record = repos.commands.create(userId, commandFields(prepare(userId, request.body, null)));
      host.reload(userId);
      await repos.store.persisted();
      return reply.code(201).send(presentCommand(record));
    },
  );

  app.post(
    "/v1/bots/:user/commands/test",
    {
      preHandler: auth,
      schema: {
        tags,
        security,
        summary: "Dry-run a chat message against the commands",
        description:
          "Runs the same permission, enable_when, cooldown, price and sandbox path as real chat, without consuming cooldowns or points and without keeping template writes. " +
          "The default sender is a viewer without badges on twitch. With `command`, that unsaved command is tested instead of the saved ones (an editor's dry run before saving).",
        params: userParams,
        body: testBodySchema,
        response: { 200: testResultSchema, ...authErrorResponses },
      },
    },
    async (request) => {
      const userId = resolveUserParam(request, request.params.user);
      const user = repos.users.get(userId);
      if (!user) throw new ApiError("OVATION_ERR_AUTH_UNAUTHENTICATED");
      const { message, event, command } = request.body;
      const chatEvent = dryRunChatEvent(repos, user, message, event);
      try {
        return describeOutcome(await host.runtime.dryRun(chatEvent, command === undefined ? {} : { command: command as BotCommand }));
      } catch (error) {
        return commandFailure(error);
      }
    },
  );

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

  app.get(
    "/v1/bots/:user/commands/:id",
    { preHandler: auth, schema: { tags, security, summary: "Get a command", params: itemParams, response: { 200: commandViewSchema, 404: errorBodySchema, ...authErrorResponses } } },
    async (request) => {
      const record = repos.commands.getForUser(resolveUserParam(request, request.params.user), request.params.id);
      if (!record) throw notFound();
      return presentCommand(record);
    },
  );

  app.put(
    "/v1/bots/:user/commands/:id",
    {
      preHandler: auth,
      schema: { tags, security, summary: "Replace a command", params: itemParams, body: botCommandSchema, response: { 200: commandViewSchema, 404: errorBodySchema, ...authErrorResponses } },
    },
    async (request) => {
      const userId = resolveUserParam(request, request.params.user);
      if (!repos.commands.getForUser(userId, request.params.id)) throw notFound();
      const record = repos.commands.update(userId, request.params.id, commandFields(prepare(userId, request.body, request.params.id)));
      if (!record) throw notFound();
      host.reload(userId);
      await repos.store.persisted();
      return presentCommand(record);
    },
  );

  app.delete(
    "/v1/bots/:user/commands/:id",
    { preHandler: auth, schema: { tags, security, summary: "Delete a command", params: itemParams, response: { 204: z.null(), 404: errorBodySchema, ...authErrorResponses } } },
    async (request, reply) => {
      const userId = resolveUserParam(request, request.params.user);
      if (!repos.commands.remove(userId, request.params.id)) throw notFound();
      host.reload(userId);
      await repos.store.persisted();
      return reply.code(204).send(null);
    },
  );
}
