import { PollModule, QueueModule, ShoutoutModule, pointsModules, quotesModule } from "@ovation/core";
import type { BotModule } from "@ovation/core";

/**
 * The bot runtime's added modules, after the system commands and before the custom commands (see
 * {@link botModuleOrder}), in this order. Adding a module: its own folder, and one line here.
 */
export function registeredBotModules(): BotModule[] {
  return [
    ...pointsModules(),
    quotesModule(),
    new QueueModule(),
    new PollModule(),
    new ShoutoutModule(),
  ];
}

/** The built-in modules; `BotModulesHost` makes them (they keep their data through the server's repositories). */
export interface BuiltInBotModules {
  moderation: BotModule;
  timers: BotModule;
  goalBars: BotModule;
  giveaways: BotModule;
  system: BotModule;
  commands: BotModule;
}

/**
 * Every module of the bot runtime, in the order a chat line meets those of one stage: guards,
 * then observers, then command modules until one handles the line (see `BotRuntime`).
 */
export function botModuleOrder(builtIn: BuiltInBotModules, engagement: readonly BotModule[]): BotModule[] {
  return [
    builtIn.moderation, // guard: a line that breaks a rule is acted on and goes no further
    builtIn.timers, // observe: counts chat lines; posts the timers due on the tick
    builtIn.goalBars, // observe: alerts move goal bars; counter goals follow their counters
    builtIn.giveaways, // command: the open giveaway's keyword is an entry
    builtIn.system, // command: !help, !language, !visuals, !effects, !sounds
    // ---- Engagement modules (points, queue, quotes, polls, shoutouts...): after the system commands,
    // ---- before the custom commands. Each adds ONE line to registeredBotModules() above.
    ...engagement,
    builtIn.commands, // command, LAST: the custom !commands, then the counters' keywords
  ];
}
