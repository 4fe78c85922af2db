import type { CommandRuntime } from "../command-runtime.js";
import { commandRoutes } from "../modules/commands/command-routes.js";
import type { CommandRoutesOptions } from "../modules/commands/command-routes.js";
import { answerCounterKeyword } from "../modules/counters/counter-keywords.js";
import { counterRoutes } from "../modules/counters/counter-routes.js";
import type { CounterRoutesOptions } from "../modules/counters/counter-routes.js";
import { KeyValueCounters } from "../modules/counters/key-value-counters.js";
import type { BotChatLine, BotChatResult, BotModule, BotModuleContext, BotModuleRoute } from "../runtime/bot-module.js";
import { answerOf } from "./answers.js";

/** Options of {@link CustomCommandsBotModule}. */
export interface CustomCommandsBotModuleOptions {
  /** The streamers' `!commands` (templates in the sandbox, cooldowns, permissions). */
  runtime: CommandRuntime;
  /** Whether an active counter's `!<keyword>` answers when no command did (default true). */
  counterKeywords?: boolean;
  /** After every line this module saw, answered or not (the server brings counter goal bars in line). */
  afterChat?(channel: string, ctx: BotModuleContext): Promise<void> | void;
  /**
   * The commands and counters API (`/v1/bots/{user}/commands...`, `/v1/bots/{bot}/counters...`): the
   * store of the commands and what the routes need of the host. Without it the module serves no routes.
   */
  api?: CustomCommandsApi;
}

/** The host's part of the commands and counters API. */
export interface CustomCommandsApi extends Omit<CommandRoutesOptions, "runtime"> {
  /** After a change of the channel's counters through the API (the server brings counter goal bars in line). */
  countersChanged?: CounterRoutesOptions["changed"];
  /** Settles once the store has the changes made so far (counter goal bars move after it). */
  persisted?: CounterRoutesOptions["persisted"];
}

/**
 * The custom commands, then the counters' keywords: the LAST command module, so every other
 * module's command wins over a custom command of the same name. Counters live in the channel's
 * key-value store (`ctx.store`), where the templates' `inc('counters', ...)` writes too.
 */
export class CustomCommandsBotModule implements BotModule {
  readonly name = "commands";
  readonly stage = "command";
  readonly runtime: CommandRuntime;
  readonly routes: readonly BotModuleRoute[];
  readonly #options: CustomCommandsBotModuleOptions;

  constructor(options: CustomCommandsBotModuleOptions) {
    this.runtime = options.runtime;
    this.#options = options;
    const api = options.api;
    this.routes =
      api === undefined
        ? []
        : [
            ...commandRoutes({ ...api, runtime: options.runtime }),
            ...counterRoutes({ commandNames: (channel) => api.records.list(channel).flatMap((c) => [c.command, ...c.command_aliases]), changed: api.countersChanged, persisted: api.persisted }),
          ];
  }

  async onChat(line: BotChatLine, ctx: BotModuleContext): Promise<BotChatResult | null> {
    const answer =
      (await this.runtime.handle(line.event)) ?? (this.#options.counterKeywords === false ? null : await answerCounterKeyword(new KeyValueCounters(ctx.store), line.event));
    await this.#options.afterChat?.(line.channel, ctx);
    return answer === null ? null : { handled: true, answers: [answerOf(answer)] };
  }

  forget(channel: string): void {
    this.runtime.removeChannel(channel);
  }
}
