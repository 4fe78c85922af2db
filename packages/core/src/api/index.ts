/**
 * @ovation/core/api: the zod schemas of the HTTP API's requests and answers (`/v1`, `/api`, the
 * browser-source config), shared by the server's routes and `@ovation/client`. Depends on zod only.
 */
export { errorBodySchema, idParam, botUserParam, dataList } from "./common.js";
export { healthSchema, serverIdsSchema } from "./service.js";
export { accountSchema } from "./users.js";
export { alertSetViewSchema, alertSetNameSchema, alertSetBodySchema, alertSetMigrateBodySchema, alertCatalogSchema, mediaUploadedSchema, mediaListSchema } from "./alert-sets.js";
export {
  alertTriggerBodySchema,
  alertTestBodySchema,
  QUEUE_ACTIONS,
  queueActionBodySchema,
  queueStateSchema,
  replayBodySchema,
  alertLogEntrySchema,
  alertLogQuerySchema,
  alertLogSchema,
} from "./alerts.js";
export { pluginStatusSchema, unservedPlatformsSchema, pluginsListingSchema, nodeSummarySchema } from "./plugins.js";
export { simulateBodySchema, simulateResultSchema } from "./simulator.js";
export { BROWSER_SOURCE_TYPES, browserSourceSchema, browserSourceGenerateBodySchema, channelBrowserSourceSchema } from "./browser-sources.js";
export type { BrowserSourceType } from "./browser-sources.js";
export { browserSourceConfigSchema } from "./browser-source-config.js";
export {
  OVERLAY_THEMES,
  OVERLAY_EFFECTS,
  BROWSER_SOURCE_SETTINGS_SCHEMAS,
  browserSourceSettingsBodySchema,
  chatSourceSettingsSchema,
  eventsSourceSettingsSchema,
  emotewallSourceSettingsSchema,
  effectAlertsSourceSettingsSchema,
  overlayEffectSchema,
  scenePartSchema,
  scenesSourceSettingsSchema,
} from "../overlays/index.js";
export type {
  ChatSourceSettings,
  EventsSourceSettings,
  EmotewallSourceSettings,
  EffectAlertsSourceSettings,
  OverlayEffect,
  ScenesSourceSettings,
  ScenePart,
} from "../overlays/index.js";
export { commandViewSchema, commandTestBodySchema, commandTestResultSchema, signingSecretSchema } from "./commands.js";
export {
  COUNTERS_PER_REQUEST,
  COUNTER_MAX_VALUE,
  counterSchema,
  counterListSchema,
  counterCreateBodySchema,
  counterUpdateBodySchema,
  counterValuesBodySchema,
  counterDeleteBodySchema,
} from "../commands/modules/counters/counter-record.js";
export {
  giveawayWinnerSchema,
  giveawayViewSchema,
  giveawayCurrentSchema,
  giveawayDrawBodySchema,
  giveawayDrawSchema,
  giveawayRerollBodySchema,
  giveawayRerollSchema,
} from "./giveaways.js";
export { goalBarViewSchema, overlaySettingsSchema, goalBarProgressBodySchema } from "./goal-bars.js";
export { timerViewSchema } from "./timers.js";
export { MANAGER_ROLES, MANAGER_ROLE_SCOPES, managerGrantBodySchema, managerViewSchema, managedChannelSchema, managerAuditEntrySchema, managerAuditSchema } from "./managers.js";
export type { ManagerRole } from "./managers.js";
export { moderationViewSchema, moderationTestBodySchema, moderationTestResultSchema } from "./moderation.js";
export { systemCommandsBodySchema, systemCommandsViewSchema } from "./system-command-settings.js";
export {
  emailBodySchema,
  passwordBodySchema,
  changePasswordBodySchema,
  codeBodySchema,
  connectionsQuerySchema,
  tokenBodySchema,
  tokenParamsSchema,
  securityKeyBodySchema,
  meSchema,
  connectionViewSchema,
  connectionStatusSchema,
  connectionParamsSchema,
  connectionPatchSchema,
  linkUrlSchema,
  linkBodySchema,
  emailChangeSchema,
  messageSchema,
  eatRequestSchema,
  eatViewSchema,
  eatIssuedSchema,
  eatValidSchema,
  personalAccessTokenSchema,
  createdTokenSchema,
  twoFactorStatusSchema,
  totpEnrolmentSchema,
  totpConfirmedSchema,
  recoveryCodesSchema,
  securityKeySchema,
  securityKeyOptionsSchema,
} from "./identity.js";
// Request inputs that live with their engine (re-exported so one entry point has every body).
export { alertSetSchema as alertSetEngineSchema } from "../alerts/schemas.js";
export { ae3DocumentSchema } from "../alerts/ae3.js";
export { botCommandSchema } from "../commands/command-record.js";
export { timerSchema } from "../commands/modules/timers/timer-record.js";
export { giveawaySettingsSchema } from "../commands/modules/giveaways/giveaway-record.js";
export { moderationSettingsSchema } from "../commands/modules/moderation/moderation-record.js";
export { MODERATION_NUMBER_BOUNDS } from "../commands/modules/moderation/moderation-bounds.js";
export type { WholeNumberRange } from "../commands/modules/moderation/moderation-bounds.js";
export { goalBarSchema } from "../goals/goal-bar.js";
export { notifySubSchema } from "../notifications/notifysub.js";
