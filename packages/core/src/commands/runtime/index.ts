// Barrel of the bot runtime: the module contract and the runner.
export { BotRuntime } from "./bot-runtime.js";
export { BotRouteError } from "./bot-module.js";
export type {
  BotAlert,
  BotAnswer,
  BotChatLine,
  BotChatResult,
  BotModule,
  BotModuleContext,
  BotModuleLog,
  BotModuleRoute,
  BotModuleStage,
  BotRouteRequest,
  PlatformAction,
  PlatformActionResult,
} from "./bot-module.js";
