import { pointsModules, quotesModule } from "@ovation/core";
import type { BotModule } from "@ovation/core";

/**
 * The bot runtime's modules, in the order a chat line meets those of one stage (see `BotRuntime`).
 * Adding a module: its own folder, and one line here.
 */
export function registeredBotModules(): BotModule[] {
  return [
    ...pointsModules(),
    quotesModule(),
  ];
}
