/**
 * @ovation/core/contracts: the shapes every part of Ovation agrees on (chat event, notification,
 * plugin contract, socket event maps, errors, platforms). Depends on zod only.
 */
export { OvationError, errorClassFor } from "./errors.js";
export type { ErrorCodeOf, ErrorCodeTable, OvationErrorClass, OvationErrorOptions } from "./errors.js";
export { definedKeys } from "./objects.js";
export type { DefinedKeys } from "./objects.js";
export { SCOPES, OVATION_SCOPES, OIDC_SCOPES, WILDCARD_SCOPE, ALL_SCOPE_VALUES, hasScope } from "./scopes.js";
export type { Scope } from "./scopes.js";
export { PLATFORMS, PLATFORM_ID_PATTERN, OWN_PLATFORM_ALIASES, isBuiltInPlatform, normalizePlatform, platformSchema } from "./platforms.js";
export type { Platform } from "./platforms.js";
export { fieldErrorsFromZod, fieldErrorsMessage, parseOrThrow, ValidationError, ROOT_FIELD } from "./validation.js";
export type { FieldErrors } from "./validation.js";
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
export {
  notifySubSchema,
  notificationExtrasSchema,
  notificationPayloadSchema,
  payloadOf,
  STREAM_STATE_TYPES,
  EMPTY_PAYLOAD_TYPES,
  REWARD_TYPES,
  REDEMPTION_TYPES,
  REDEMPTION_PAYLOAD_KEYS,
  NON_ALERT_TYPES,
  CUSTOM_NOTIFICATION_TYPE,
  DEFAULT_CUSTOM_LABEL,
} from "./notifications/notifysub.js";
export type { NotifySub, NotificationExtras, NotificationPayload } from "./notifications/notifysub.js";
export { CHAT_HEARTBEAT_INTERVAL_MS } from "./realtime/events.js";
export type { IngressEvent } from "./realtime/events.js";
export { GOAL_BAR_KINDS, goalBarSchema, goalBarStyleSchema, goalIncrement, goalProgress } from "./goals/goal-bar.js";
export type { GoalBar, GoalBarInput, GoalBarKind, GoalBarProgress, GoalBarStyle } from "./goals/goal-bar.js";
export type {
  AlertLogEntryView,
  AlertLogUpdate,
  QueueStateView,
  BrowserSourceUpdated,
  GoalBarView,
  OverlaySettings,
  QueueControl,
  SocketErrorPayload,
  ServerToClientEvents,
  ClientToServerEvents,
  ConsoleClientEvents,
  ConsoleServerEvents,
  ConsoleLineResult,
  ConsoleOutput,
  ConsoleModeration,
  ConsoleReady,
} from "./realtime/events.js";
export {
  REALTIME_INBOUND_LIMITS,
  INBOUND_EVENT_SCHEMAS,
  CONSOLE_INBOUND_EVENT_SCHEMAS,
  roomEventArgsSchema,
  ackEventArgsSchema,
  consoleLineArgsSchema,
} from "./realtime/inbound.js";

// Plugin contract (the host side, PluginHost and checkPlugin, is in @ovation/core/plugins).
export { SEND_AS, PLUGIN_STATUSES, CHANNEL_STATES } from "./plugins/contract.js";
export type {
  SendAs,
  OutgoingMessage,
  ModerationCapabilities,
  ModerationActions,
  ModerationTarget,
  PluginCapabilities,
  PluginMetadata,
  ModerationEvent,
  PluginStatus,
  PluginStatusReport,
  EmitResult,
  PlatformLookups,
  PlatformActions,
  PluginContext,
  PlatformPlugin,
  ServedChannel,
  ChannelState,
  ChannelStatusReport,
} from "./plugins/contract.js";
export type { PlatformAction, PlatformActionResult } from "./plugins/platform-actions.js";
export { PLUGIN_ERROR_CODES, PluginError } from "./plugins/plugin-errors.js";
export type { PluginErrorCode } from "./plugins/plugin-errors.js";
export { catalogParameterSchema, platformDeclarationSchema } from "./alerts/platform-declaration.js";
export type { PlatformAlertDeclaration, PlatformDeclaration } from "./alerts/platform-declaration.js";
export { PLUGIN_API_VERSION, apiVersionProblem, definePlugin } from "./plugins/factory.js";
export type {
  PluginDefinition,
  PluginFactory,
  PluginFactoryContext,
  PluginCredentials,
  ChannelTokens,
  AppCredentials,
  PluginRoutes,
  PluginRouteRequest,
  PluginRouteAnswer,
  PluginRouteHandler,
  PluginRouteLimit,
  PluginKeyValue,
  PluginRelay,
  PluginQuota,
} from "./plugins/factory.js";
export { RecentIds } from "./plugins/recent-ids.js";
