/**
 * @ovation/core/commands: the bot command runtime (custom `!commands`, cooldowns, points, template
 * functions), the bot modules, the bot runtime that runs them (`BotRuntime`, `BotModule`) and the
 * built-in modules as modules of it. Renders templates through @ovation/core/templates and calls
 * out through @ovation/core/net.
 */
export { COMMAND_ERROR_CODES, CommandError } from "./command-error.js";
export type { CommandErrorCode } from "./command-error.js";
export { COMMAND_LIMITS, ENABLE_WHEN, botCommandSchema, commandNameSchema } from "./command-record.js";
export type { BotCommand, BotCommandInput, EnableWhen } from "./command-record.js";
export { CHAT_PATTERN_LIMITS, COMMAND_REGEX_MAX_LENGTH, CommandRegex, patternSetProblem } from "./command-regex.js";
export { CHAT_BUDGET, ChatBudget, ChatMeter } from "./chat-budget.js";
export type { ChatBudgetCut, ChatBudgetOptions } from "./chat-budget.js";
export { looksPlain } from "./command-renderer.js";
export type { CommandRenderer, CommandTemplateVariables } from "./command-renderer.js";
export { COMMAND_OUTPUT_MAX_LENGTH, CommandRuntime } from "./command-runtime.js";
export type { CommandOutcome, CommandPoints, CommandRuntimeOptions, PreparedCommand } from "./command-runtime.js";
export { CooldownTracker } from "./cooldowns.js";
export type { CooldownClaim, CooldownEntry, CooldownStore } from "./cooldowns.js";
export { InMemoryKeyValueStore, OverlayKeyValueStore, POINTS_TABLE, debitPoints, readField, storedNumber, updateFields } from "./key-value-store.js";
export type { KeyValueStore } from "./key-value-store.js";
export { PERMISSION_LEVELS, permissionLevelOf } from "./permission-levels.js";
export type { PermissionLevelName } from "./permission-levels.js";
export { OverlayTemplateCache, TEMPLATE_CACHE_LIMITS, TemplateCache } from "./template-cache.js";
export type { TemplateCacheStore } from "./template-cache.js";
export { TEMPLATE_FUNCTION_LIMITS, createTemplateFunctions } from "./template-functions.js";
export type { TemplateFunctionsOptions } from "./template-functions.js";

// Bot modules: timers, giveaways, auto-moderation, system commands, counters (each usable alone; their own barrel).
export * from "./modules/index.js";

// The bot runtime: the module contract every bot module implements, and the runner.
export * from "./runtime/index.js";

// The built-in modules as modules of the bot runtime (storage through their options).
export * from "./built-in/index.js";
