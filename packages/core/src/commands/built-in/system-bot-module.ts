import type { SystemCommands } from "../modules/system/system-commands.js";
import { systemRoutes } from "../modules/system/system-routes.js";
import type { OwnCommand } from "../modules/system/system-routes.js";
import type { BotChatLine, BotChatResult, BotModule, BotModuleRoute } from "../runtime/bot-module.js";
import { answerOf } from "./answers.js";

/** Options of {@link SystemBotModule}. */
export interface SystemBotModuleOptions {
  system: SystemCommands;
  /** A channel's stored bot settings (language, overlay switches), or null for the defaults. */
  stored?(channel: string): unknown;
  /** The streamer's own commands with their ids (the API names the one replacing a system command); none without it. */
  ownCommands?(channel: string): readonly OwnCommand[];
}

/** The system commands (`!help`, `!language`, `!visuals`, `!effects`, `!sounds`) as a command module, with their API routes. */
export class SystemBotModule implements BotModule {
  readonly name = "system";
  readonly stage = "command";
  readonly system: SystemCommands;
  readonly routes: readonly BotModuleRoute[];
  readonly #stored: ((channel: string) => unknown) | undefined;

  constructor(options: SystemBotModuleOptions) {
    this.system = options.system;
    this.#stored = options.stored;
    this.routes = systemRoutes(this.system, (channel) => options.ownCommands?.(channel) ?? []);
  }

  onChat(line: BotChatLine): BotChatResult | null {
    const result = this.system.handle(line.event);
    return result === null ? null : { handled: true, answers: [answerOf(result.reply)] };
  }

  load(channel: string): void {
    if (this.#stored !== undefined) this.system.restore(channel, this.#stored(channel));
  }
}
