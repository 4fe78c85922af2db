// Barrel of the built-in bot modules: the core's timers, giveaways, auto-moderation, system
// commands, goal bars and custom commands as modules of the bot runtime. Storage comes in through
// each module's options (callbacks and small interfaces), so they run in the server and in any
// embedder alike (with an `InMemoryKeyValueStore`, for example).
export { answerOf } from "./answers.js";
export { CustomCommandsBotModule } from "./custom-commands-bot-module.js";
export type { CustomCommandsApi, CustomCommandsBotModuleOptions } from "./custom-commands-bot-module.js";
export { GiveawaysBotModule } from "./giveaways-bot-module.js";
export type { GiveawaysBotModuleOptions } from "./giveaways-bot-module.js";
export { GoalBarsBotModule } from "./goal-bars-bot-module.js";
export type { GoalBarsBotModuleOptions } from "./goal-bars-bot-module.js";
export type { GoalBarStore, StoredGoalBar } from "../modules/goal-bars/goal-bar-records.js";
export { ModerationBotModule } from "./moderation-bot-module.js";
export type { ModerationBotModuleOptions, ModerationOutcome } from "./moderation-bot-module.js";
export { SystemBotModule } from "./system-bot-module.js";
export type { SystemBotModuleOptions } from "./system-bot-module.js";
export { TimersBotModule } from "./timers-bot-module.js";
export type { TimersBotModuleOptions } from "./timers-bot-module.js";
