import { randomBytes } from "node:crypto";
import { pino, type Logger } from "pino";
import { chatEventSchema, type ChatEvent } from "../chat/event.js";
import type { GuardedHttpClient } from "../net/guarded-client.js";
import type { NotifySub } from "../notifications/notifysub.js";
import type { OutgoingMessage, PlatformLookups } from "../plugins/contract.js";
import { COMMAND_ERROR_CODES, CommandError, formatIssues } from "./command-error.js";
import { botCommandSchema, type BotCommand, type BotCommandInput } from "./command-record.js";
import { ChatBudget } from "./chat-budget.js";
import { CHAT_PATTERN_LIMITS, CommandRegex, patternSetProblem } from "./command-regex.js";
import { looksPlain, type CommandRenderer, type CommandTemplateVariables } from "./command-renderer.js";
import { CooldownTracker, type CooldownClaim, type CooldownStore } from "./cooldowns.js";
import { OverlayKeyValueStore, POINTS_TABLE, debitPoints, storedNumber, type KeyValueStore } from "./key-value-store.js";
import { PERMISSION_LEVELS, permissionLevelOf } from "./permission-levels.js";
import { OverlayTemplateCache, TemplateCache, type TemplateCacheStore } from "./template-cache.js";
import { createTemplateFunctions } from "./template-functions.js";
import type { CommandOutcome } from "./modules/commands/command-outcome.js";
export type { CommandOutcome };
import { botMessage } from "./modules/system/bot-messages.js";
import type { BotLanguage } from "./modules/system/bot-messages.js";
import { definedKeys } from "../objects.js";

/** Longest text the runtime sends to chat; longer output is cut (after trimming). */
export const COMMAND_OUTPUT_MAX_LENGTH = 500;
/** How often a viewer is told at most that they lack points for a command, per command. */
const PRICE_NOTICE_INTERVAL_SECONDS = 30;

/** Options of {@link CommandRuntime}. */
export interface CommandRuntimeOptions {
  /** The host's key-value store (template tables and viewers' points). */
  store: KeyValueStore;
  /** The template engine (`TemplateSandbox`); without it only plain-text responses are accepted. */
  renderer?: CommandRenderer;
  /** The guarded client for `proxy_pass` and `json`; without it those calls are refused. */
  http?: GuardedHttpClient;
  /** Platform lookups for `user()` and `channel()` per platform id. */
  lookups?: (platform: string) => PlatformLookups | undefined;
  /** pino logger (default: silent). */
  logger?: Logger;
  /** Clock in milliseconds for cooldowns and the cache (default `Date.now`). */
  now?: () => number;
  /** Where cooldowns are kept (default: this process's memory); a shared one for several nodes. */
  cooldowns?: CooldownStore;
  /** Where `cache()` keeps its values (default: this process's memory); a shared one for several nodes. */
  cache?: TemplateCacheStore;
  /** The time budget of regex matching per message and channel (default: one of this runtime's own). */
  budget?: ChatBudget;
  /** Whose balance a command's `price` spends and how the refusal reads (default: the viewer's platform id, English). */
  points?: CommandPoints;
}

/**
 * How a command's `price` meets the loyalty points (docs/points.md): the viewer's wallet in the
 * `points` table, the channel's currency name and bot language for "not enough points", and a hook
 * told of each spend and refund (the points history).
 */
export interface CommandPoints {
  /** The key of the viewer's balance in the `points` table (default: `event.user.platform_id`). */
  wallet(event: ChatEvent): string | Promise<string>;
  /** The channel's bot language (`!language`), for the refusal (default `en`). */
  language?(channel: string): BotLanguage;
  /** The channel's currency name (default `points`). */
  currency?(channel: string): string | Promise<string>;
  /** Told after a price was paid (`amount` > 0) or given back (`amount` < 0, the template failed). */
  spent?(channel: string, wallet: string, amount: number, command: string): void | Promise<void>;
}

/** A validated command with its regex and response compiled, ready to run. */
export interface PreparedCommand {
  record: BotCommand;
  regex: CommandRegex | null;
  /** The response ready to send when it is plain text; null for templates. */
  plain: string | null;
  compiled: unknown;
}

interface ChannelState {
  byName: Map<string, PreparedCommand>;
  byRegex: PreparedCommand[];
  live: boolean;
  signingSecret: string;
}

interface RunContext {
  store: KeyValueStore;
  cache: TemplateCacheStore;
  cooldowns: CooldownStore | null;
  dryRun: boolean;
}

const NONE: Promise<null> = Promise.resolve(null);
const WHITESPACE = /\s+/;

function cut(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > COMMAND_OUTPUT_MAX_LENGTH ? trimmed.slice(0, COMMAND_OUTPUT_MAX_LENGTH).trimEnd() : trimmed;
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === "function";
}

/** The command word of a `!` message, lowercased (`"!Hug @bob"` -> `"hug"`). */
function commandWord(message: string): string {
  let end = 1;
  while (end < message.length) {
    const c = message.charCodeAt(end);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xa0 || c === 0x3000) break;
    end++;
  }
  return message.slice(1, end).toLowerCase();
}

/**
 * The bot command runtime: feed it chat events, get back the messages to send. Per channel it holds
 * the commands (validated and compiled once), the live state and the signing secret. See
 * docs/commands.md for the order of checks and every choice it makes.
 */
export class CommandRuntime {
  readonly #channels = new Map<string, ChannelState>();
  readonly #store: KeyValueStore;
  readonly #renderer: CommandRenderer | undefined;
  readonly #http: GuardedHttpClient | undefined;
  readonly #lookups: ((platform: string) => PlatformLookups | undefined) | undefined;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #cooldowns: CooldownStore;
  readonly #cache: TemplateCacheStore;
  readonly #budget: ChatBudget;
  readonly #points: CommandPoints | undefined;

  constructor(options: CommandRuntimeOptions) {
    this.#points = options.points;
    this.#budget = options.budget ?? new ChatBudget();
    this.#store = options.store;
    this.#renderer = options.renderer;
    this.#http = options.http;
    this.#lookups = options.lookups;
    this.#logger = options.logger ?? pino({ enabled: false });
    this.#now = options.now ?? Date.now;
    this.#cooldowns = options.cooldowns ?? new CooldownTracker({ now: this.#now });
    this.#cache = options.cache ?? new TemplateCache({ now: this.#now });
  }

  /**
   * Validates and compiles the commands of a channel and replaces the previous set. Throws
   * `CommandError` listing every problem (`<index>.<field>: <rule>`, template syntax errors with line
   * and column, names claimed twice) and changes nothing then. Returns the validated records.
   */
  setCommands(channel: string, commands: readonly BotCommandInput[]): BotCommand[] {
    const problems: string[] = [];
    const prepared: PreparedCommand[] = [];
    commands.forEach((input, index) => {
      try {
        prepared.push(this.prepare(input));
      } catch (error) {
        const lines = error instanceof CommandError && Array.isArray(error.details.issues) ? (error.details.issues as string[]) : [(error as Error).message];
        for (const line of lines) problems.push(`${index}.${line}`);
      }
    });
    const regexes = prepared.flatMap((command) => (command.regex === null ? [] : [command.regex]));
    const tooMuch = patternSetProblem("commands with a command_regex", regexes, {
      maxCount: CHAT_PATTERN_LIMITS.regexCommands,
      countLimit: "regexCommands",
      maxTotal: CHAT_PATTERN_LIMITS.commandProgramTotal,
      totalLimit: "commandProgramTotal",
    });
    if (tooMuch !== null) problems.push(`command_regex: ${tooMuch}`);
    const byName = new Map<string, PreparedCommand>();
    for (const command of prepared) {
      for (const name of command.record.commands) {
        const key = name.toLowerCase();
        const owner = byName.get(key);
        if (owner !== undefined) problems.push(`"${name}" is used by both !${owner.record.command} and !${command.record.command}`);
        else byName.set(key, command);
      }
    }
    if (problems.length > 0) {
      throw new CommandError(COMMAND_ERROR_CODES.invalidCommand, `invalid commands: ${problems.join("; ")}`, { details: { issues: problems } });
    }
    const state = this.#state(channel);
    state.byName = byName;
    state.byRegex = prepared.filter((command) => command.regex !== null);
    return prepared.map((command) => command.record);
  }

  /**
   * Validates and compiles one command record without storing it (what saving a command runs).
   * Throws `CommandError` with `details.issues` as `field: rule` lines.
   */
  prepare(input: BotCommandInput): PreparedCommand {
    const parsed = botCommandSchema.safeParse(input);
    if (!parsed.success) {
      const issues = formatIssues(parsed.error.issues);
      throw new CommandError(COMMAND_ERROR_CODES.invalidCommand, `invalid command: ${issues.join("; ")}`, { details: { issues } });
    }
    const record = parsed.data;
    const regex = record.command_regex === null ? null : CommandRegex.compile(record.command_regex);
    return { record, regex, ...this.compileMessage(record.response, "response") };
  }

  /**
   * Compiles a bot message (a command response, a timer message) the way responses are compiled:
   * plain text is kept as it is (trimmed and cut), anything else becomes a sandboxed template.
   * Throws `CommandError` (`OVATION_ERR_COMMANDS_INVALID_TEMPLATE`) whose issue names `field`.
   */
  compileMessage(source: string, field: string): { plain: string | null; compiled: unknown } {
    const plainText = this.#renderer?.isPlainText?.(source) ?? looksPlain(source);
    if (plainText) return { plain: cut(source), compiled: null };
    if (this.#renderer === undefined) {
      const issues = [`${field}: templates need a template renderer, and this runtime has none`];
      throw new CommandError(COMMAND_ERROR_CODES.invalidTemplate, issues[0] as string, { details: { issues } });
    }
    try {
      return { plain: null, compiled: this.#renderer.compile(source) };
    } catch (error) {
      const where = error as { line?: unknown; column?: unknown };
      const position = typeof where.line === "number" ? ` (line ${where.line}${typeof where.column === "number" ? `, column ${where.column}` : ""})` : "";
      const issues = [`${field}: ${(error as Error).message}${(error as Error).message.includes("line") ? "" : position}`];
      throw new CommandError(COMMAND_ERROR_CODES.invalidTemplate, issues[0] as string, {
        cause: error,
        details: { issues, line: where.line, column: where.column },
      });
    }
  }

  /**
   * Renders a message compiled by {@link compileMessage} for `event` in the sandbox, with the same
   * template functions, store and signing secret as commands; `record` is the template's `command`
   * variable (a timer record, for example). Resolves to the trimmed, cut text.
   */
  async renderMessage(event: ChatEvent, record: Readonly<Record<string, unknown>>, compiled: { plain: string | null; compiled: unknown }): Promise<string> {
    if (compiled.plain !== null) return compiled.plain;
    const state = this.#state(event.channel.id);
    return cut(await this.#renderWith(event, state, record, compiled.compiled, { store: this.#store, cache: this.#cache }));
  }

  /** The validated commands of a channel (for the command overview; filter on `is_visible` there). */
  commands(channel: string): BotCommand[] {
    const state = this.#channels.get(channel);
    if (state === undefined) return [];
    return [...new Set(state.byName.values())].map((command) => command.record);
  }

  /** Sets the secret that signs the channel's outbound calls (default: a random one per channel). */
  setSigningSecret(channel: string, secret: string): void {
    if (secret.length < 16) throw new TypeError("a signing secret must be at least 16 characters");
    this.#state(channel).signingSecret = secret;
  }

  /** Sets whether the channel's stream is live (for `enable_when`). A channel never told is offline. */
  setLive(channel: string, live: boolean): void {
    this.#state(channel).live = live;
  }

  /** Whether the runtime believes the channel is live. */
  isLive(channel: string): boolean {
    return this.#channels.get(channel)?.live ?? false;
  }

  /** Feeds a NotifySub notification: `stream.online` / `stream.offline` update the live state; others are ignored. */
  applyNotification(channel: string, notification: NotifySub): void {
    const type = notification.subscription.type;
    if (type === "stream.online") this.setLive(channel, true);
    else if (type === "stream.offline") this.setLive(channel, false);
  }

  /** Forgets a channel: its commands, live state and secret. */
  removeChannel(channel: string): void {
    this.#channels.delete(channel);
  }

  /**
   * Handles one chat event and resolves to the message to send, or null. A message that does not
   * start with `!` returns at once (one property read and one character compare). Commands are
   * matched before the event is validated, so only events that name a command pay for validation;
   * an invalid one rejects with `CommandError` (`OVATION_ERR_COMMANDS_INVALID_EVENT`) naming each field.
   */
  handle(input: unknown): Promise<OutgoingMessage | null> {
    const message = (input as { message?: unknown } | null | undefined)?.message;
    if (typeof message === "string" && message.charCodeAt(0) !== 33) return NONE;
    return this.#handleCandidate(input, message);
  }

  /**
   * Runs an event through the same path as {@link handle} without consuming cooldowns or points, and
   * with template writes (db/set/inc/dec/cache) kept apart from stored data; reports what happened
   * (`POST /v1/bots/{user}/commands/test`). With `options.command`, that (unsaved) command is tested
   * instead of the channel's commands.
   */
  async dryRun(input: unknown, options: { command?: BotCommandInput } = {}): Promise<CommandOutcome> {
    const event = this.#validate(input);
    if (event.message.charCodeAt(0) !== 33) return { status: "not_command" };
    const state = this.#channels.get(event.channel.id) ?? { byName: new Map(), byRegex: [], live: false, signingSecret: randomBytes(32).toString("base64url") };
    let command: PreparedCommand | null;
    if (options.command === undefined) {
      command = this.#match(state, event.message, event.channel.id);
    } else {
      const candidate = this.prepare(options.command);
      const word = commandWord(event.message);
      const byName = candidate.record.commands.some((name) => name.toLowerCase() === word);
      command = byName || candidate.regex?.test(event.message) === true ? candidate : null;
    }
    if (command === null) return { status: "no_match" };
    return this.#run(event, state, command, {
      store: new OverlayKeyValueStore(this.#store),
      cache: new OverlayTemplateCache(this.#cache, this.#now),
      cooldowns: null,
      dryRun: true,
    });
  }

  async #handleCandidate(input: unknown, message: unknown): Promise<OutgoingMessage | null> {
    if (typeof message === "string") {
      const channelId = (input as { channel?: { id?: unknown } }).channel?.id;
      const state = typeof channelId === "string" ? this.#channels.get(channelId) : undefined;
      if (state === undefined) return null;
      const command = this.#match(state, message, channelId as string);
      if (command === null) return null;
      const event = this.#validate(input);
      const outcome = await this.#run(event, state, command, { store: this.#store, cache: this.#cache, cooldowns: this.#cooldowns, dryRun: false });
      return "action" in outcome ? outcome.action : null;
    }
    this.#validate(input);
    return null;
  }

  #validate(input: unknown): ChatEvent {
    const parsed = chatEventSchema.safeParse(input);
    if (!parsed.success) {
      const issues = formatIssues(parsed.error.issues);
      throw new CommandError(COMMAND_ERROR_CODES.invalidEvent, `invalid chat event: ${issues.join("; ")}`, { details: { issues } });
    }
    return parsed.data;
  }

  /**
   * The command a message names, or else the first whose regex matches it. Regexes are tried
   * within the channel's chat budget: when it is spent the rest are skipped (and reported).
   */
  #match(state: ChannelState, message: string, channel: string): PreparedCommand | null {
    const byName = state.byName.get(commandWord(message));
    if (byName !== undefined) return byName;
    if (state.byRegex.length === 0) return null;
    const meter = this.#budget.start(channel);
    try {
      for (const [index, command] of state.byRegex.entries()) {
        if (meter.stop("command_regex", state.byRegex.length - index)) return null;
        if (command.regex?.test(message) === true) return command;
      }
      return null;
    } finally {
      meter.end();
    }
  }

  async #run(event: ChatEvent, state: ChannelState, command: PreparedCommand, ctx: RunContext): Promise<CommandOutcome> {
    const record = command.record;
    const name = record.command;
    const caller = permissionLevelOf(event);
    if (caller < record.permissions) return { status: "permission", command: name, required: record.permissions, caller };
    if (record.enable_when !== "both" && (record.enable_when === "online") !== state.live) {
      return { status: "disabled", command: name, enable_when: record.enable_when, live: state.live };
    }
    const channel = event.channel.id;
    const privileged = caller >= PERMISSION_LEVELS.moderator;
    const tracker = ctx.cooldowns ?? this.#cooldowns;
    const globalKey = `${channel}\u0000${name}`;
    const userKey = `${globalKey}\u0000${event.user.platform_id}`;
    // Checked and taken in one step (atomic across nodes with a shared store); given back below
    // when the viewer cannot pay. A dry run only reads.
    let claim: CooldownClaim | null = null;
    if (ctx.cooldowns !== null) {
      // A command without cooldowns has nothing to check or take (no store records a 0 s entry).
      if (record.global_cooldown > 0 || record.user_cooldown > 0) {
        const pending = ctx.cooldowns.claim([{ key: globalKey, seconds: record.global_cooldown }, { key: userKey, seconds: record.user_cooldown }], { force: privileged });
        // The in-memory tracker answers at once: no extra turn of the microtask queue for it.
        claim = isPromiseLike(pending) ? await pending : pending;
        if (!claim.ok) return { status: "cooldown", command: name, scope: claim.index === 0 ? "global" : "user", remaining_seconds: claim.remainingSeconds };
      }
    } else if (!privileged) {
      const global = await tracker.remainingSeconds(globalKey, record.global_cooldown);
      if (global > 0) return { status: "cooldown", command: name, scope: "global", remaining_seconds: global };
      const user = await tracker.remainingSeconds(userKey, record.user_cooldown);
      if (user > 0) return { status: "cooldown", command: name, scope: "user", remaining_seconds: user };
    }
    if (record.price > 0) {
      const payer = await this.#wallet(event);
      const { ok, balance } = ctx.dryRun
        ? await ctx.store.table(channel, POINTS_TABLE).then((points) => {
            const have = storedNumber(points[payer]);
            return { ok: have >= record.price, balance: have >= record.price ? have - record.price : have };
          })
        : await debitPoints(ctx.store, channel, payer, record.price);
      if (!ok) {
        if (claim?.ok === true) await claim.release();
        const noticeKey = `${userKey}\u0000price`;
        let action: OutgoingMessage | null = null;
        const notice = ctx.cooldowns === null ? null : await ctx.cooldowns.claim([{ key: noticeKey, seconds: PRICE_NOTICE_INTERVAL_SECONDS }]);
        if (ctx.dryRun || notice?.ok === true) {
          const language = this.#points?.language?.(channel) ?? "en";
          const currency = (await this.#points?.currency?.(channel)) ?? "points";
          const text = botMessage(language, "price_not_enough", { user: event.user.username, command: name, price: record.price, currency, balance });
          action = this.#action(event, text, "say");
        }
        return { status: "price", command: name, price: record.price, balance, action };
      }
      if (!ctx.dryRun) await this.#spent(channel, payer, record.price, name);
    }
    let text: string;
    try {
      text = command.plain ?? cut(await this.#render(event, state, command, ctx));
    } catch (error) {
      return this.#failed(event, command, caller, error, ctx);
    }
    if (text.length === 0) return { status: "empty", command: name };
    return { status: "sent", command: name, action: this.#action(event, text, record.send_as) };
  }

  #render(event: ChatEvent, state: ChannelState, command: PreparedCommand, ctx: RunContext): Promise<string> {
    return this.#renderWith(event, state, command.record, command.compiled, ctx);
  }

  #renderWith(
    event: ChatEvent,
    state: ChannelState,
    record: Readonly<Record<string, unknown>>,
    compiled: unknown,
    ctx: Pick<RunContext, "store" | "cache">,
  ): Promise<string> {
    const renderer = this.#renderer as CommandRenderer;
    const args = event.message.trim().split(WHITESPACE);
    const variables: CommandTemplateVariables = {
      command: record,
      event,
      args,
      irc: { channel: event.channel.username, message: event.message },
    };
    const lookups = this.#lookups?.(event.platform);
    const functions = createTemplateFunctions({
      channel: event.channel.id,
      store: ctx.store,
      cache: ctx.cache,
      signingSecret: state.signingSecret,
      payload: { event, command: record, args },
      ...definedKeys({ http: this.#http, lookups }),
    });
    return renderer.render(compiled, variables, functions);
  }

  async #failed(event: ChatEvent, command: PreparedCommand, caller: number, error: unknown, ctx: RunContext): Promise<CommandOutcome> {
    const name = command.record.command;
    const reason = error instanceof Error ? error.message : String(error);
    this.#logger.warn(
      { err: error, channel: event.channel.id, command: name, user: event.user.platform_id, dryRun: ctx.dryRun },
      "command template failed",
    );
    if (command.record.price > 0 && !ctx.dryRun) {
      // The viewer paid for an answer that did not come: give the points back.
      const payer = await this.#wallet(event);
      await ctx.store.update(event.channel.id, POINTS_TABLE, payer, (current) => storedNumber(current) + command.record.price);
      await this.#spent(event.channel.id, payer, -command.record.price, name);
    }
    const short = reason.length > 200 ? `${reason.slice(0, 199)}…` : reason;
    const action =
      caller >= PERMISSION_LEVELS.moderator || ctx.dryRun ? this.#action(event, `@${event.user.username} !${name} failed: ${short}`, "say") : null;
    return { status: "error", command: name, error: reason, action };
  }

  /** The key of the viewer's balance in the points table. */
  async #wallet(event: ChatEvent): Promise<string> {
    return this.#points === undefined ? event.user.platform_id : this.#points.wallet(event);
  }

  /** Tells the points hook of a spend or refund; its failure never undoes the command. */
  async #spent(channel: string, wallet: string, amount: number, command: string): Promise<void> {
    try {
      await this.#points?.spent?.(channel, wallet, amount, command);
    } catch (err) {
      this.#logger.warn({ err, channel, command }, "points spend not recorded");
    }
  }

  #action(event: ChatEvent, text: string, sendAs: BotCommand["send_as"]): OutgoingMessage {
    return { channel: event.channel, text: cut(text), send_as: sendAs, reply_to: sendAs === "reply" ? event.id : null };
  }

  #state(channel: string): ChannelState {
    let state = this.#channels.get(channel);
    if (state === undefined) {
      state = { byName: new Map(), byRegex: [], live: false, signingSecret: randomBytes(32).toString("base64url") };
      this.#channels.set(channel, state);
    }
    return state;
  }
}
