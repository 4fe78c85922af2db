import { z } from "zod";
import type { ChatEvent } from "../../../chat/event.js";
import type { BotCommand, BotCommandInput } from "../../command-record.js";
import { botCommandSchema } from "../../command-record.js";
import { CHAT_PATTERN_LIMITS, CommandRegex, patternSetProblem } from "../../command-regex.js";
import type { BotModuleRoute } from "../../runtime/bot-module.js";
import { fieldsRouteError } from "../field-errors.js";
import { routeError } from "../route-errors.js";
import { COMMANDS_ERROR_CODES, commandTestBodySchema, commandTestResultSchema, commandViewSchema, presentCommand, signingSecretSchema } from "./command-view.js";
import type { CommandFields, CommandTestEvent, StoredCommand } from "./command-view.js";
import type { CommandOutcome } from "./command-outcome.js";

/** What the routes use of the commands runtime (`CommandRuntime`): validating and compiling a command, the dry run. */
export interface CommandsRuntime {
  prepare(input: BotCommandInput): { readonly record: BotCommand };
  dryRun(input: unknown, options?: { command?: BotCommandInput }): Promise<CommandOutcome>;
}

/** The token scope of the commands routes. */
export const COMMANDS_SCOPE = "chatbot:manage:commands";

/** Where a channel's commands are stored (the host's store; channel = the streamer's user id). */
export interface CommandRecords {
  /** The channel's commands, by id. */
  list(channel: string): StoredCommand[];
  /** The channel's command with this id, or null. */
  get(channel: string, id: number): StoredCommand | null;
  create(channel: string, fields: CommandFields): StoredCommand;
  /** Replaces the command's fields; null when the channel has no such command. */
  update(channel: string, id: number, fields: CommandFields): StoredCommand | null;
  /** False when the channel has no such command. */
  remove(channel: string, id: number): boolean;
}

/** Where each channel's signing secret is kept (read to sign; a new one after a leak). */
export interface SigningSecrets {
  get(channel: string): string;
  /** Replaces the channel's secret; answers the new one. */
  rotate(channel: string): string;
}

/** What the commands routes need of the host. */
export interface CommandRoutesOptions {
  /** The streamers' commands runtime (validation, compiling, the dry run). */
  runtime: CommandsRuntime;
  records: CommandRecords;
  signingSecrets: SigningSecrets;
  /** Most commands a channel may have. */
  maxCommands: number;
  /** Loads the channel's stored commands (and signing secret) into the runtime again, after a change. */
  reload(channel: string): void;
  /**
   * The chat message of a dry run as a platform would bring it: in the streamer's own channel, by a
   * viewer without badges on twitch unless `event` says otherwise.
   */
  dryRunEvent(channel: string, message: string, event: CommandTestEvent): ChatEvent;
}

/** A command error of {@link COMMANDS_ERROR_CODES}, with its status and (by default) its message. */
function describeOutcome(outcome: CommandOutcome): z.infer<typeof commandTestResultSchema> {
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

/** The writable fields of a validated command. */
function fieldsOf(command: BotCommand): CommandFields {
  return {
    command: command.command,
    command_aliases: [...command.command_aliases],
    response: command.response,
    command_regex: command.command_regex,
    permissions: command.permissions,
    price: command.price,
    send_as: command.send_as,
    enable_when: command.enable_when,
    user_cooldown: command.user_cooldown,
    global_cooldown: command.global_cooldown,
    is_visible: command.is_visible,
  };
}

/** The signing secret as the API answers it. */
function presentSecret(secret: string): z.infer<typeof signingSecretSchema> {
  return { secret, algorithm: "HMAC-SHA256", headers: { timestamp: "X-Ovation-Timestamp", signature: "X-Ovation-Signature" } };
}

const itemParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/**
 * Bot commands of `{user}` (the caller's id or `@me`; scope `chatbot:manage:commands`), mounted at
 * `/v1/bots/{user}/commands`: list, create, read, replace, delete, and a dry run through the real
 * permission/cooldown/sandbox path; and the bot's signing secret (`/v1/bots/{user}/signing-secret`),
 * the owner's alone, behind an elevated access token.
 */
export function commandRoutes(options: CommandRoutesOptions): BotModuleRoute[] {
  const { runtime, records } = options;

  /** Validates and compiles a command, and checks its names against the channel's other commands. */
  const prepare = (channel: string, body: unknown, exceptId: number | null): CommandFields => {
    let record: BotCommand;
    try {
      // The host validated the body against botCommandSchema; prepare validates it again and compiles it.
      record = runtime.prepare(body as BotCommandInput).record;
    } catch (error) {
      fieldsRouteError(error, "response");
    }
    const others = records.list(channel).filter((other) => other.id !== exceptId);
    const taken = new Map<string, string>();
    for (const other of others) {
      for (const name of [other.command, ...other.command_aliases]) taken.set(name.toLowerCase(), other.command);
    }
    if (record.command_regex !== null) {
      const regexes = [record.command_regex, ...others.flatMap((other) => (other.command_regex ? [other.command_regex] : []))];
      const tooMuch = patternSetProblem("commands with a command_regex", regexes.flatMap(compiledOrNone), {
        maxCount: CHAT_PATTERN_LIMITS.regexCommands,
        countLimit: "regexCommands",
        maxTotal: CHAT_PATTERN_LIMITS.commandProgramTotal,
        totalLimit: "commandProgramTotal",
      });
      if (tooMuch !== null) {
        const message = `You would have ${tooMuch}.`;
        throw routeError(COMMANDS_ERROR_CODES, "OVATION_ERR_COMMANDS_LIMIT_REACHED", { message: message, errors: { command_regex: [message] } });
      }
    }
    const clash = record.commands.find((name) => taken.has(name.toLowerCase()));
    if (clash !== undefined) {
      const message = `The command has already been taken: !${clash} is used by !${taken.get(clash.toLowerCase())}.`;
      throw routeError(COMMANDS_ERROR_CODES, "OVATION_ERR_COMMANDS_NAME_TAKEN", { message: message, errors: { [clash.toLowerCase() === record.command.toLowerCase() ? "command" : "command_aliases"]: [message] } });
    }
    return fieldsOf(record);
  };
  const idOf = (params: Readonly<Record<string, string>>) => Number(params["id"]);

  return [
    {
      method: "GET",
      path: "commands",
      scope: COMMANDS_SCOPE,
      summary: "List the commands",
      response: z.object({ data: z.array(commandViewSchema) }),
      handle: ({ channel }) => ({ data: records.list(channel).map(presentCommand) }),
    },
    {
      method: "POST",
      path: "commands",
      scope: COMMANDS_SCOPE,
      summary: "Register a command",
      description: "`response` is plain text or a Twig-syntax template. Fields left out take their defaults.",
      body: botCommandSchema,
      response: commandViewSchema,
      status: 201,
      handle: ({ channel, body }) => {
        const count = records.list(channel).length;
        if (count >= options.maxCommands) {
          const message = `You have ${count} commands; the limit is ${options.maxCommands} per user (commands). Delete one first.`;
          throw routeError(COMMANDS_ERROR_CODES, "OVATION_ERR_COMMANDS_LIMIT_REACHED", { message: message, errors: { command: [message] } });
        }
        const record = records.create(channel, prepare(channel, body, null));
        options.reload(channel);
        return presentCommand(record);
      },
    },
    {
      method: "POST",
      path: "commands/test",
      readOnly: true,
      scope: COMMANDS_SCOPE,
      summary: "Dry-run a chat message against the commands",
      description:
        "Runs the same permission, enable_when, cooldown, price and sandbox path as real chat, without consuming cooldowns or points and without keeping template writes. " +
        "The default sender is a viewer without badges on twitch. With `command`, that unsaved command is tested instead of the saved ones (an editor's dry run before saving).",
      body: commandTestBodySchema,
      response: commandTestResultSchema,
      handle: async ({ channel, body }) => {
        const { message, event, command } = commandTestBodySchema.parse(body);
        const chatEvent = options.dryRunEvent(channel, message, event);
        try {
          // An unsaved command is validated by the dry run itself (its errors answer 422 like a save).
          return describeOutcome(await runtime.dryRun(chatEvent, command === undefined ? {} : { command: command as BotCommandInput }));
        } catch (error) {
          return fieldsRouteError(error, "response");
        }
      },
    },
    {
      method: "GET",
      path: "signing-secret",
      scope: COMMANDS_SCOPE,
      access: "owner-elevated",
      summary: "The secret that signs the bot's outbound calls",
      description:
        'Needs an `Elevated-Access-Token` when the account has an email address (always when the identity module runs on another host). `proxy_pass` and `json` requests carry `X-Ovation-Signature: sha256=<hex HMAC-SHA256 of timestamp + "." + body>` made with this secret; see docs/outbound.md.',
      response: signingSecretSchema,
      handle: ({ channel }) => presentSecret(options.signingSecrets.get(channel)),
    },
    {
      method: "POST",
      path: "signing-secret/rotate",
      scope: COMMANDS_SCOPE,
      access: "owner-elevated",
      summary: "Replace the signing secret (after a leak)",
      response: signingSecretSchema,
      handle: ({ channel }) => {
        const secret = options.signingSecrets.rotate(channel);
        options.reload(channel);
        return presentSecret(secret);
      },
    },
    {
      method: "GET",
      path: "commands/:id",
      scope: COMMANDS_SCOPE,
      summary: "Get a command",
      errors: [404],
      params: itemParams,
      response: commandViewSchema,
      handle: ({ channel, params }) => {
        const record = records.get(channel, idOf(params));
        if (!record) throw routeError(COMMANDS_ERROR_CODES, "OVATION_ERR_COMMANDS_NOT_FOUND");
        return presentCommand(record);
      },
    },
    {
      method: "PUT",
      path: "commands/:id",
      scope: COMMANDS_SCOPE,
      summary: "Replace a command",
      errors: [404],
      params: itemParams,
      body: botCommandSchema,
      response: commandViewSchema,
      handle: ({ channel, params, body }) => {
        const id = idOf(params);
        if (!records.get(channel, id)) throw routeError(COMMANDS_ERROR_CODES, "OVATION_ERR_COMMANDS_NOT_FOUND");
        const record = records.update(channel, id, prepare(channel, body, id));
        if (!record) throw routeError(COMMANDS_ERROR_CODES, "OVATION_ERR_COMMANDS_NOT_FOUND");
        options.reload(channel);
        return presentCommand(record);
      },
    },
    {
      method: "DELETE",
      path: "commands/:id",
      scope: COMMANDS_SCOPE,
      summary: "Delete a command",
      errors: [404],
      params: itemParams,
      status: 204,
      handle: ({ channel, params }) => {
        if (!records.remove(channel, idOf(params))) throw routeError(COMMANDS_ERROR_CODES, "OVATION_ERR_COMMANDS_NOT_FOUND");
        options.reload(channel);
        return null;
      },
    },
  ];
}
