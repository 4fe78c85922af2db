/**
 * @ovation/client/http: a typed client of every `/v1` and `/api` endpoint. Types come from the
 * server's own zod schemas (`@ovation/core/api`); no zod code runs here.
 */
export { HttpClient, EAT_HEADER, fillPath } from "./transport.js";
export type { HttpClientOptions, CallOptions, RequestParts, Route, HttpMethod, Provider } from "./transport.js";
export type { In, Out, BotCallOptions } from "./schema-types.js";
export { createOvationClient } from "./client.js";
export type { OvationClient } from "./client.js";
export { allRoutes } from "./routes.js";
export { serviceApi, SERVICE_ROUTES } from "./service.js";
export type { ServiceApi } from "./service.js";
export { usersApi, USERS_ROUTES } from "./users.js";
export type { UsersApi } from "./users.js";
export { alertsApi, ALERTS_ROUTES } from "./alerts.js";
export type { AlertsApi, QueueAction, QueueCallOptions } from "./alerts.js";
export { alertSetsApi, ALERT_SETS_ROUTES } from "./alert-sets.js";
export type { AlertSetsApi, AlertSet, AlertSetInput } from "./alert-sets.js";
export { mediaApi, MEDIA_ROUTES } from "./media.js";
export type { MediaApi } from "./media.js";
export { browserSourcesApi, BROWSER_SOURCES_ROUTES } from "./browser-sources.js";
export type { BrowserSourcesApi, BrowserSource, BrowserSourceConfig } from "./browser-sources.js";
export { commandsApi, COMMANDS_ROUTES } from "./commands.js";
export type { CommandsApi, BotCommandView, BotCommandInput, CommandTestResult, SigningSecret } from "./commands.js";
export { countersApi, COUNTERS_ROUTES } from "./counters.js";
export type { CountersApi, Counter } from "./counters.js";
export { timersApi, TIMERS_ROUTES } from "./timers.js";
export type { TimersApi, TimerView, TimerInput } from "./timers.js";
export { giveawaysApi, GIVEAWAYS_ROUTES } from "./giveaways.js";
export type { GiveawaysApi, Giveaway } from "./giveaways.js";
export { moderationApi, MODERATION_ROUTES } from "./moderation.js";
export type { ModerationApi, ModerationView } from "./moderation.js";
export { goalBarsApi, GOAL_BARS_ROUTES } from "./goal-bars.js";
export type { GoalBarsApi, GoalBarConfig, GoalBarInput } from "./goal-bars.js";
export { pluginsApi, PLUGINS_ROUTES } from "./plugins.js";
export type { PluginsApi, PluginStatus, PluginsListing } from "./plugins.js";
export { simulatorApi, SIMULATOR_ROUTES } from "./simulator.js";
export type { SimulatorApi, SimulateInput, SimulateResult } from "./simulator.js";
export { managersApi, MANAGERS_ROUTES } from "./managers.js";
export type { ManagersApi, Manager, ManagedChannel, ManagerAuditEntry, ManagerRole } from "./managers.js";
export { accountApi, ACCOUNT_ROUTES } from "./account.js";
export type { AccountApi, Me, Connection, ConnectionStatus, LinkStart } from "./account.js";
export { tokensApi, TOKENS_ROUTES } from "./tokens.js";
export type { TokensApi, PersonalAccessToken } from "./tokens.js";
export { eatApi, EAT_ROUTES } from "./eat.js";
export type { EatApi } from "./eat.js";
export { securityApi, SECURITY_ROUTES } from "./security.js";
export type { SecurityApi, SecurityKey } from "./security.js";
export * from "../errors.js";
