/**
 * @ovation/core: the library other bots embed. No servers, no storage.
 * Each area keeps its exports in its own block below; edit only your area's block.
 */

// --- shared
export { OvationError } from "./errors.js";
export { PLATFORMS, OWN_PLATFORM_ALIASES, normalizePlatform, platformSchema } from "./platforms.js";
export type { Platform } from "./platforms.js";

// --- chat
export {
  CHAT_LIMITS,
  chatBadgeSchema,
  chatFragmentSchema,
  chatUserSchema,
  chatChannelSchema,
  chatEventSchema,
  fragmentDataSchema,
} from "./chat/event.js";
export type { ChatBadge, ChatFragment, ChatUser, ChatChannel, ChatEvent } from "./chat/event.js";

// --- notifications and realtime
export { notifySubSchema, STREAM_STATE_TYPES } from "./notifications/notifysub.js";
export type { NotifySub } from "./notifications/notifysub.js";
export type {
  BrowserSourceUpdated,
  QueueControl,
  SocketErrorPayload,
  ServerToClientEvents,
  ClientToServerEvents,
} from "./realtime/events.js";

// --- alerts (AE4 engine)
export { ALERT_CATALOG, ALERT_TYPES } from "./alerts/catalog-data.js";
export {
  isAlertType,
  getCatalogType,
  getCatalogPlatform,
  catalogParameters,
  catalogPairs,
  exampleAlertData,
} from "./alerts/catalog.js";
export type { AlertType } from "./alerts/catalog.js";
export type {
  JsonValue,
  CatalogAlertType,
  CatalogParameter,
  CatalogParameterOption,
  CatalogParameterType,
  CatalogPlatform,
  CatalogDefaultTexts,
  CatalogExample,
} from "./alerts/catalog-types.js";
export { ALERT_LIMITS } from "./alerts/limits.js";
export {
  templateFieldShape,
  templateLayerSchema,
  hexColorSchema,
  mediaHrefSchema,
  styleNameSchema,
  fontFamilySchema,
  TEMPLATE_FIELDS,
  ENGINE_DEFAULT_TEMPLATE,
  KNOWN_LAYOUTS,
} from "./alerts/template-settings.js";
export type { AlertTemplate, TemplateField, TemplateLayer } from "./alerts/template-settings.js";
export {
  CONDITION_OPERATORS,
  MASK_WIDTH,
  conditionIssues,
  conditionSchema,
  compileCondition,
  compileConditionMask,
  conditionVariables,
  forcedValues,
} from "./alerts/conditions.js";
export type {
  Condition,
  ConditionIssue,
  ConditionOperator,
  ConditionContext,
  CompiledCondition,
  CompiledConditionMask,
} from "./alerts/conditions.js";
export { alertTypeSchema, typeDefaultSchema, variationSchema, alertSetSchema } from "./alerts/schemas.js";
export type { AlertSet, AlertSetInput, TypeDefault, Variation } from "./alerts/schemas.js";
export {
  alertDataSchema,
  storedTemplateNameSchema,
  customTemplateSchema,
  customFieldKeySchema,
  customCodeTemplateSchema,
  alertTriggerTemplateSchema,
  alertTriggerSchema,
  alertTestSchema,
  isCustomCodeTemplate,
  templateFromCustom,
} from "./alerts/trigger.js";
export type { AlertData, AlertTrigger, AlertTest, CustomTemplate, CustomCodeTemplate } from "./alerts/trigger.js";
export { resolveAlert, explainAlert, compileAlertSet, buildConditionContext } from "./alerts/resolve.js";
export type {
  AlertInput,
  AlertResolution,
  AlertExplanation,
  DisabledReason,
  FieldExplanation,
  FieldSource,
  CompiledAlertSet,
} from "./alerts/resolve.js";
export {
  renderPlaceholderSegments,
  renderPlaceholdersHtml,
  fillPlaceholders,
  escapeHtml,
  lookupPath,
  placeholderText,
  placeholderPaths,
} from "./alerts/placeholders.js";
export type { PlaceholderSegment } from "./alerts/placeholders.js";
export { buildDefaultAlertSet } from "./alerts/default-set.js";
export {
  AE3_TYPE_MAP,
  AE3_TYPES,
  AE3_PARAMETERS,
  AE3_TIER_PARAMETER,
  AE3_DEFAULT_TEXTS,
  AE3_ENGINE_DEFAULTS,
  AE3_TEXT_LENGTH,
  ae3DocumentSchema,
  ae3SettingsSchema,
  ae3TierSchema,
} from "./alerts/ae3.js";
export type { Ae3Document, Ae3DocumentInput, Ae3Settings, Ae3Type, Ae3TypeConfig } from "./alerts/ae3.js";
export { migrateAe3ToAe4, migrateAe3Alert, migrateAe3Text, migrateAe3Settings } from "./alerts/migrate.js";
export { ALERT_ERROR_CODES, AlertMigrationError } from "./alerts/errors.js";
export { fieldErrorsFromZod, fieldErrorsMessage, parseOrThrow, ValidationError, ROOT_FIELD } from "./validation.js";
export type { FieldErrors } from "./validation.js";

// --- templates
export type { TemplateHostFunctions } from "./templates/host-functions.js";
export { TemplateSandbox } from "./templates/template-sandbox.js";
export type {
  CompiledTemplate,
  TemplateVariables,
  TemplateSandboxOptions,
  TemplateSandboxStats,
} from "./templates/template-sandbox.js";
export type { IsolatePoolStats, IsolateReplacementReason } from "./templates/isolate-pool.js";
export { DEFAULT_SANDBOX_LIMITS } from "./templates/sandbox-limits.js";
export type { TemplateSandboxLimits } from "./templates/sandbox-limits.js";
export { TemplateSyntaxError, TemplateRenderError, TEMPLATE_ERROR_CODES } from "./templates/errors.js";
export type { TemplateFailure } from "./templates/errors.js";
export { checkTemplateSyntax } from "./templates/check-template-syntax.js";
export type { TemplateSyntaxCheck } from "./templates/check-template-syntax.js";
export { isPlainText } from "./templates/plain-text.js";
export { capOutput } from "./templates/output-cap.js";
export { MAX_TEMPLATE_SOURCE_LENGTH } from "./templates/twig-compiler.js";
export { TEMPLATE_FUNCTION_NAMES, TWIG_FILTERS } from "./templates/template-functions.js";
export type { TemplateFunctionName } from "./templates/template-functions.js";

// --- net (outbound HTTP guard, signing)
export { AddressPolicy, ipLiteralOf } from "./net/address-policy.js";
export type { AddressPolicyOptions } from "./net/address-policy.js";
export { GuardedHttpClient, OUTBOUND_DEFAULTS } from "./net/guarded-client.js";
export type { GuardedHttpClientOptions, GuardedRequest, GuardedResponse, HostResolver } from "./net/guarded-client.js";
export { NET_ERROR_CODES, NetError } from "./net/net-error.js";
export type { NetErrorCode } from "./net/net-error.js";
export { SlidingWindowLimiter } from "./net/rate-limit.js";
export {
  OVATION_PROXY_PASS_VERSION,
  OVATION_SIGNATURE_HEADER,
  OVATION_TIMESTAMP_HEADER,
  signOvationRequest,
  verifyOvationSignature,
} from "./net/signature.js";
export type { OvationSignatureHeaders, VerifyOvationSignatureOptions } from "./net/signature.js";
export { JSON_CALL_METHODS, fetchJson, proxyPass } from "./net/template-calls.js";
export type { ProxyPassBody, TemplateCallContext } from "./net/template-calls.js";

// --- commands (bot runtime)
export { COMMAND_ERROR_CODES, CommandError } from "./commands/command-error.js";
export type { CommandErrorCode } from "./commands/command-error.js";
export { COMMAND_LIMITS, ENABLE_WHEN, botCommandSchema, commandNameSchema } from "./commands/command-record.js";
export type { BotCommand, BotCommandInput, EnableWhen } from "./commands/command-record.js";
export { COMMAND_REGEX_MAX_LENGTH, CommandRegex } from "./commands/command-regex.js";
export { looksPlain } from "./commands/command-renderer.js";
export type { CommandRenderer, CommandTemplateVariables } from "./commands/command-renderer.js";
export { COMMAND_OUTPUT_MAX_LENGTH, CommandRuntime } from "./commands/command-runtime.js";
export type { CommandOutcome, CommandRuntimeOptions, PreparedCommand } from "./commands/command-runtime.js";
export { CooldownTracker } from "./commands/cooldowns.js";
export { InMemoryKeyValueStore, OverlayKeyValueStore, POINTS_TABLE, debitPoints, storedNumber } from "./commands/key-value-store.js";
export type { KeyValueStore } from "./commands/key-value-store.js";
export { PERMISSION_LEVELS, permissionLevelOf } from "./commands/permission-levels.js";
export type { PermissionLevelName } from "./commands/permission-levels.js";
export { OverlayTemplateCache, TEMPLATE_CACHE_LIMITS, TemplateCache } from "./commands/template-cache.js";
export type { TemplateCacheStore } from "./commands/template-cache.js";
export { TEMPLATE_FUNCTION_LIMITS, createTemplateFunctions } from "./commands/template-functions.js";
export type { TemplateFunctionsOptions } from "./commands/template-functions.js";

// --- plugins (platform plugin contract)
export { SEND_AS, PLUGIN_STATUSES } from "./plugins/contract.js";
export type {
  SendAs,
  OutgoingMessage,
  ModerationCapabilities,
  PluginCapabilities,
  PluginMetadata,
  ModerationEvent,
  PluginStatus,
  PluginStatusReport,
  EmitResult,
  PlatformLookups,
  PluginContext,
  PlatformPlugin,
} from "./plugins/contract.js";
export { PLUGIN_ERROR_CODES, PluginError } from "./plugins/errors.js";
export type { PluginErrorCode } from "./plugins/errors.js";
export { pluginMetadataSchema, pluginCapabilitiesSchema, checkPlugin } from "./plugins/metadata.js";
export { CORE_VERSION, coreSatisfies } from "./plugins/version.js";
export { RecentIds } from "./plugins/recent-ids.js";
export { PluginHost, normalizeSendAs } from "./plugins/host.js";
export type {
  HostAction,
  PluginSource,
  ChatRoomEvent,
  PluginHostOptions,
  PluginCounters,
  PluginHealth,
} from "./plugins/host.js";
