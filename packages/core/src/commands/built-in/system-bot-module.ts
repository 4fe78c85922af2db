import type { SystemCommands } from "../modules/system/system-commands.js";
import type { BotChatLine, BotChatResult, BotModule } from "../runtime/bot-module.js";
import { answerOf } from "./answers.js";

/** Options of {@link SystemBotModule}. */
export interface SystemBotModuleOptions {
  system: SystemCommands;
  /** A channel's stored bot settings (language, overlay switches), or null for the defaults. */
  stored?(channel: string): unknown;
}

/** The system commands (`!help`, `!language`, `!visuals`, `!effects`, `!sounds`) as a command module. */
export class SystemBotModule implements BotModule {
  readonly name = "system";
  readonly stage = "command";
  readonly system: SystemCommands;
  readonly #stored: ((channel: string) => unknown) | undefined;

  constructor(options: SystemBotModuleOptions) {
    this.system = options.system;
    this.#stored = options.stored;
  }

  onChat(line: BotChatLine): BotChatResult | null {
    const result = this.system.handle(line.event);
    return result === null ? null : { handled: true, answers: [answerOf(result.reply)] };
  }

  load(channel: string): void {
    if (this.#stored !== undefined) this.system.restore(channel, this.#stored(channel));
  }
}
