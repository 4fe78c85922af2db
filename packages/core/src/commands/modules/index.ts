// Barrel of the bot modules: timers, giveaways, auto-moderation, system commands, counters, goal bars, points, quotes, queue, polls and shoutouts. Each module is
// a class with no I/O of its own (the host stores and sends), so each can be used and tested alone.
export { BOT_MODULE_ERROR_CODES, BotModuleError } from "./module-error.js";
export type { BotModuleErrorCode } from "./module-error.js";
export { BOT_ROUTE_ERROR_CODES, routeError, storedOrRouteError } from "./route-errors.js";
export type { BotRouteErrorEntry } from "./route-errors.js";
export { VIEWER_GROUPS, isInGroups, viewerGroupsOf, viewerGroupsSchema } from "./exemptions.js";
export type { ViewerGroup } from "./exemptions.js";
export { TIMERS_ERROR_CODES, TIMER_LIMITS, TIMER_SEND_AS, timerSchema } from "./timers/timer-record.js";
export type { Timer, TimerInput } from "./timers/timer-record.js";
export { TimerModule } from "./timers/timer-module.js";
export type { CompiledMessage, MessageTemplates, TimerModuleOptions, TimerPost } from "./timers/timer-module.js";
export { TIMERS_SCOPE, timerFields, timerRoutes } from "./timers/timer-routes.js";
export type { StoredTimer, TimerRecords, TimerRoutesTarget } from "./timers/timer-routes.js";
export {
  GIVEAWAYS_ERROR_CODES,
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
export { GIVEAWAYS_SCOPE, giveawayRoutes } from "./giveaways/giveaway-routes.js";
export type { GiveawayNews, GiveawayRoutesTarget } from "./giveaways/giveaway-routes.js";
export { MAX_TIMEOUT_SECONDS, MODERATION_LIMITS, MODERATION_NUMBER_BOUNDS } from "./moderation/moderation-bounds.js";
export type { WholeNumberRange } from "./moderation/moderation-bounds.js";
export {
  MODERATION_ACTION_TYPES,
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
export { moderationRoutes } from "./moderation/moderation-routes.js";
export type { ModerationRoutesModule, ModerationRoutesPort } from "./moderation/moderation-routes.js";
export type { ModerationTestWriter } from "./moderation/moderation-view.js";
export type { ToxicityScorer } from "./moderation/toxicity.js";
export { foldText, matchingWords, wordVariants } from "./moderation/normalize.js";
export { DOMAIN_PATTERN, isAllowedHost, linkHosts, stripLinks } from "./moderation/links.js";
export { BOT_LANGUAGES, botMessage } from "./system/bot-messages.js";
export type { BotLanguage, BotMessageKey } from "./system/bot-messages.js";
export { OVERLAY_SWITCHES, SYSTEM_COMMANDS, SYSTEM_COMMAND_LEVELS, SystemCommands, botSettingsSchema, overlaySwitches } from "./system/system-commands.js";
export type { BotSettings, OverlaySwitch, SystemCommandName, SystemCommandResult, SystemCommandsOptions } from "./system/system-commands.js";
export { COUNTERS_TABLE, COUNTER_SETTINGS_TABLE, CounterRangeError, KeyValueCounters, counterValue } from "./counters/key-value-counters.js";
export type { Counter, CounterOperation } from "./counters/key-value-counters.js";
export { answerCounterKeyword } from "./counters/counter-keywords.js";
export { GOAL_BARS_ERROR_CODES, GOAL_BAR_LIMITS } from "./goal-bars/goal-bar-records.js";
export type { GoalBarFields, GoalBarRecords, SavedGoalBar } from "./goal-bars/goal-bar-records.js";
export { goalBarFields, presentGoalBar } from "./goal-bars/goal-bar-view.js";
export { GOAL_BARS_SCOPE, goalBarsRoutes } from "./goal-bars/goal-bars-routes.js";
export { QUEUE_LIMITS, queueEntrySchema, queuePickSchema, queueSettingsSchema, queueStateSchema, queueView, orderedEntries } from "./queue/queue-record.js";
export type { QueueEntry, QueueEntryView, QueuePick, QueueSettings, QueueState, QueueView } from "./queue/queue-record.js";
export { QUEUE_KEY, QUEUE_TABLE, QUEUE_UPDATED, QueueModule } from "./queue/queue-module.js";
export type { QueueJoinOutcome, QueueModuleOptions, QueuePickMode } from "./queue/queue-module.js";
export { queueViewSchema } from "./queue/queue-routes.js";
export { POLL_LIMITS, pollInputSchema, pollStateSchema, pollView } from "./polls/poll-record.js";
export type { PollChoiceView, PollInput, PollState, PollView } from "./polls/poll-record.js";
export { POLLS_TABLE, POLL_CURRENT, POLL_HISTORY, POLL_UPDATED, PollModule, resultText as pollResultText } from "./polls/poll-module.js";
export type { PollModuleOptions } from "./polls/poll-module.js";
export type { PollStartOutcome } from "./polls/poll-record.js";
export { pollViewSchema } from "./polls/poll-routes.js";
export { PROFILE_URLS, SHOUTOUT_LIMITS, shoutoutRecordSchema, shoutoutSettingsSchema, shoutoutStateSchema } from "./shoutouts/shoutout-record.js";
export type { ShoutoutRecord, ShoutoutSettings, ShoutoutState } from "./shoutouts/shoutout-record.js";
export { SHOUTOUTS_TABLE, ShoutoutModule } from "./shoutouts/shoutout-module.js";
export type { ShoutoutOutcome } from "./shoutouts/shoutout-record.js";
export { fillBotMessage } from "./system/bot-messages.js";
export type { BotMessageParams } from "./system/bot-messages.js";
export {
  POINTS_CONFIG_TABLE,
  POINTS_ERROR_CODES,
  POINTS_HISTORY_TABLE,
  POINTS_LIMITS,
  POINTS_REASONS,
  POINTS_VIEWERS_TABLE,
  pointsHistoryEntrySchema,
  pointsSettingsSchema,
  pointsWallet,
} from "./points/points-record.js";
export type { PointsHistoryEntry, PointsReason, PointsSettings, PointsSettingsInput, PointsViewer } from "./points/points-record.js";
export { adjustPoints, appendPointsHistory, awardPoints, loadPointsSettings, pointsBalance, pointsCurrency, pointsHistory, pointsStandings } from "./points/points-ledger.js";
export type { PointsStanding } from "./points/points-ledger.js";
export { POINTS_CSV_COLUMNS, formatPointsCsv, parsePointsCsv } from "./points/points-csv.js";
export type { PointsCsvExportRow, PointsCsvParse, PointsCsvRow } from "./points/points-csv.js";
export { PointsModule, alertPoints, pointsModules } from "./points/points-module.js";
export type { PointsModuleOptions, PointsTickReport } from "./points/points-module.js";
export { POINTS_SCOPE } from "./points/points-routes.js";
export { QUOTES_ERROR_CODES, QUOTE_LIMITS, quoteInputSchema, quoteSchema } from "./quotes/quote-record.js";
export type { Quote, QuoteInput } from "./quotes/quote-record.js";
export { QUOTES_SCOPE, listQuotes, quotesModule } from "./quotes/quotes-module.js";
export type { QuotesModuleOptions } from "./quotes/quotes-module.js";
export { VALIDATION_ERROR_CODE, fieldsRouteError, routeValidationError } from "./field-errors.js";
export type { TemplatePosition } from "./field-errors.js";
export { COMMANDS_ERROR_CODES, presentCommand } from "./commands/command-view.js";
export type { CommandFields, CommandTestEvent, StoredCommand } from "./commands/command-view.js";
export { COMMANDS_SCOPE, commandRoutes } from "./commands/command-routes.js";
export type { CommandRecords, CommandRoutesOptions, SigningSecrets } from "./commands/command-routes.js";
export { COUNTERS_ERROR_CODES } from "./counters/counter-record.js";
export type { CountersErrorCode } from "./counters/counter-record.js";
export { counterRoutes } from "./counters/counter-routes.js";
export type { CounterRoutesOptions } from "./counters/counter-routes.js";
