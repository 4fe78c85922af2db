import { CHAT_PATTERN_LIMITS, ChatBudget, CommandRuntime, GuardedHttpClient, TemplateSandbox, definedKeys } from "@ovation/core";
import type { BotCommandInput, CommandRuntimeOptions, PlatformLookups } from "@ovation/core";
import type { Logger } from "pino";
import type { Repositories } from "../store/repositories.js";
import { commandFields } from "../store/commands.js";
import { usersOfDocuments } from "../store/partitions.js";
import { SIGNING_SECRETS_EXTENSION } from "../store/signing-secrets.js";
import type { CommandRecord } from "../store/records.js";
import { commandPoints } from "./points-wallets.js";

/** The input form of a stored command (what the runtime validates and compiles). */
export function commandInput(record: CommandRecord): BotCommandInput {
  return {
    ...commandFields(record),
    send_as: record.send_as as BotCommandInput["send_as"],
    enable_when: record.enable_when as BotCommandInput["enable_when"],
  };
}

/**
 * The bot runtime of the server (templates in core's isolated-vm sandbox, outbound calls through
 * the guarded client, signed with the user's stored signing secret): one channel per user (channel
 * id = the user's id, as in chat events' `channel.id`), loaded from the store and reloaded after each
 * command change.
 */
export class CommandHost {
  readonly runtime: CommandRuntime;
  /** The templates' key-value store (in the store file, capped per user). */
  readonly keyValues: Repositories["kv"];
  /**
   * The time budget of each user's chat pattern matching (command regexes here, moderation patterns
   * in the bot modules): a cut message is logged, at most once per user every 10 s.
   */
  readonly chatBudget: ChatBudget;
  readonly #sandbox: TemplateSandbox;

  /**
   * `outboundAllowlist` (OVATION_OUTBOUND_ALLOWLIST) lists the hosts/CIDRs that `proxy_pass` and
   * `json` may reach although they are not public addresses. `lookups` gives the templates'
   * `user()`/`channel()` per platform (the platform plugins that offer them). `selfPorts` are the
   * server's own listening ports: templates never reach them on this machine unless an allowlist
   * entry names the port (`localhost:8080`). `shared` holds the cooldowns and `cache()` values every
   * node sees (Redis); by default they are this process's memory.
   */
  constructor(
    private readonly repos: Repositories,
    private readonly logger: Logger,
    outboundAllowlist: readonly string[] = [],
    readonly lookups?: (platform: string) => PlatformLookups | undefined,
    selfPorts?: () => readonly number[],
    shared: Pick<CommandRuntimeOptions, "cooldowns" | "cache"> = {},
  ) {
    this.#sandbox = new TemplateSandbox({ logger });
    this.keyValues = repos.kv;
    const logged = new Map<string, number>();
    this.chatBudget = new ChatBudget({
      onCut: (cut) => {
        const now = Date.now();
        if (now - (logged.get(cut.channel) ?? 0) < 10_000) return;
        logged.set(cut.channel, now);
        if (logged.size > 10_000) logged.clear();
        logger.warn({ userId: Number(cut.channel), stage: cut.stage, skipped: cut.skipped, reason: cut.reason }, "chat matching over its time budget: patterns skipped");
      },
    });
    this.runtime = new CommandRuntime({
      budget: this.chatBudget,
      store: this.keyValues,
      renderer: this.#sandbox,
      http: new GuardedHttpClient({ allow: outboundAllowlist, ...definedKeys({ selfPorts }) }),
      logger,
      points: commandPoints(repos),
      ...definedKeys({ lookups }),
      ...shared,
    });
    for (const user of repos.users.list()) this.reload(user.id);
    // Commands changed by another node on the same database (several nodes on PostgreSQL).
    repos.store.onRemoteChange(({ documents }) => {
      for (const userId of usersOfDocuments(documents)) if (repos.users.get(userId)) this.reload(userId);
      if (documents.includes(`ext:${SIGNING_SECRETS_EXTENSION}`)) for (const user of repos.users.list()) this.runtime.setSigningSecret(String(user.id), repos.signingSecrets.get(user.id));
    });
  }

  /** Stops the template sandbox. */
  async close(): Promise<void> {
    await this.#sandbox.close();
  }

  /** Reloads a user's commands into the runtime; a stored command that no longer compiles is logged and skipped. */
  reload(userId: number): void {
    const channel = String(userId);
    this.runtime.setSigningSecret(channel, this.repos.signingSecrets.get(userId));
    const inputs = this.repos.commands.listForUser(userId).map(commandInput);
    try {
      this.runtime.setCommands(channel, inputs);
    } catch (error) {
      this.logger.error({ err: error, userId }, "stored commands failed to load; loading the valid ones");
      // Commands that compile, and regex commands only while they fit the channel's limits (a store
      // written before the limits may hold more): the rest are left out, and the logs say so.
      let regexes = 0;
      let program = 0;
      const valid = inputs.filter((input) => {
        try {
          const regex = this.runtime.prepare(input).regex;
          if (regex === null) return true;
          if (regexes + 1 > CHAT_PATTERN_LIMITS.regexCommands || program + regex.programSize > CHAT_PATTERN_LIMITS.commandProgramTotal) {
            this.logger.warn({ userId, command: input.command }, "stored regex command over the channel's regex limits; not loaded");
            return false;
          }
          regexes++;
          program += regex.programSize;
          return true;
        } catch {
          return false;
        }
      });
      try {
        this.runtime.setCommands(channel, valid);
      } catch (second) {
        this.logger.error({ err: second, userId }, "stored commands could not be loaded");
      }
    }
  }
}
