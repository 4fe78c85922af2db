// Barrel of the bot modules: timers, giveaways, auto-moderation and system commands. Each module is
// a class with no I/O of its own (the host stores and sends), so each can be used and tested alone.
export { BOT_MODULE_ERROR_CODES, BotModuleError } from "./module-error.js";
export type { BotModuleErrorCode } from "./module-error.js";
export { VIEWER_GROUPS, isInGroups, viewerGroupsOf, viewerGroupsSchema } from "./exemptions.js";
export type { ViewerGroup } from "./exemptions.js";
export { TIMER_LIMITS, TIMER_SEND_AS, timerSchema } from "./timers/timer-record.js";
export type { Timer, TimerInput } from "./timers/timer-record.js";
export { TimerModule } from "./timers/timer-module.js";
export type { CompiledMessage, MessageTemplates, TimerModuleOptions, TimerPost } from "./timers/timer-module.js";
export {
  GIVEAWAY_ELIGIBILITY,
  GIVEAWAY_LIMITS,
  giveawayEntrySchema,
  giveawaySettingsSchema,
  giveawayStateSchema,
  giveawayWinnerSchema,
} from "./giveaways/giveaway-record.js";
export type {
  GiveawayEligibility,
  GiveawayEntry,
  GiveawaySettings,
  GiveawaySettingsInput,
  GiveawayState,
  GiveawayWinner,
} from "./giveaways/giveaway-record.js";
export { drawWeighted } from "./giveaways/draw.js";
export type { RandomInt, Weighted } from "./giveaways/draw.js";
export { GiveawayModule } from "./giveaways/giveaway-module.js";
export type { GiveawayEntryOutcome, GiveawayModuleOptions } from "./giveaways/giveaway-module.js";
export {
  MAX_TIMEOUT_SECONDS,
  MODERATION_ACTION_TYPES,
  MODERATION_LIMITS,
  MODERATION_RULES,
  moderationActionSchema,
  moderationSettingsSchema,
} from "./moderation/moderation-record.js";
export type {
  ModerationAction,
  ModerationActionType,
  ModerationRule,
  ModerationSettings,
  ModerationSettingsInput,
} from "./moderation/moderation-record.js";
export { ModerationModule } from "./moderation/moderation-module.js";
export type { ModerationVerdict, PhraseNode, PreparedModeration } from "./moderation/moderation-module.js";
export { enforceVerdict } from "./moderation/enforce.js";
export type { EnforcementResult } from "./moderation/enforce.js";
export { LexiconToxicityScorer } from "./moderation/toxicity.js";
export type { ToxicityScorer } from "./moderation/toxicity.js";
export { foldText, matchingWords, wordVariants } from "./moderation/normalize.js";
export { DOMAIN_PATTERN, isAllowedHost, linkHosts, stripLinks } from "./moderation/links.js";
export { BOT_LANGUAGES, botMessage } from "./system/bot-messages.js";
export type { BotLanguage, BotMessageKey } from "./system/bot-messages.js";
export { OVERLAY_SWITCHES, SYSTEM_COMMANDS, SYSTEM_COMMAND_LEVELS, SystemCommands, botSettingsSchema } from "./system/system-commands.js";
export type { BotSettings, OverlaySwitch, SystemCommandName, SystemCommandResult, SystemCommandsOptions } from "./system/system-commands.js";
