/**
 * @ovation/plugin-twitch: Twitch chat (tmi.js) and EventSub WebSocket as an Ovation platform plugin.
 */
export { TwitchPlugin, TWITCH_PLUGIN_VERSION, sanitizeChatText } from "./plugin.js";
export type { TwitchPluginHooks } from "./plugin.js";
export { twitchPluginOptionsSchema, twitchSettingsSchema } from "./options.js";
export type { TwitchPluginOptions, TwitchSettings } from "./options.js";
export { TWITCH_ERROR_CODES, TwitchError } from "./errors.js";
export type { TwitchErrorCode } from "./errors.js";
export { parseIrcLine, unescapeTag } from "./irc/irc-message.js";
export type { IrcMessage } from "./irc/irc-message.js";
export { normalizeIrcMessage } from "./irc/normalize.js";
export type { IrcOutcome, NormalizeContext } from "./irc/normalize.js";
export { normalizeBadges } from "./irc/badges.js";
export { buildFragments, cheerTier, GLOBAL_CHEERMOTE_PREFIXES } from "./irc/fragments.js";
export { mapEventSubNotification, MAPPED_TYPES } from "./eventsub/map.js";
export type { MapResult } from "./eventsub/map.js";
export { SUBSCRIPTIONS } from "./eventsub/subscriptions.js";
export type { SubscriptionSpec } from "./eventsub/subscriptions.js";
export { EventSubSocket } from "./eventsub/socket.js";
export type { EventSubSocketOptions } from "./eventsub/socket.js";
export type { EventSubNotification, EventSubRevocation } from "./eventsub/wire.js";
export { HelixClient } from "./helix/client.js";
export type { HelixClientOptions, TwitchTokens } from "./helix/client.js";
export { helixLookups } from "./helix/endpoints.js";
export { twitchFactory, default } from "./factory.js";
export { TWITCH_BROADCASTER_SCOPES, TWITCH_BROADCASTER_SCOPE_REASONS, missingEventSubScopes } from "./channels/scopes.js";
export { BroadcasterEventSub, VALIDATE_EVERY_MS } from "./channels/broadcaster.js";
export { TWITCH_POLL_LIMITS, TwitchPlatformActions } from "./actions/platform-actions.js";
export type { ActionAccess } from "./actions/platform-actions.js";
export { JoinQueue, TWITCH_JOINS_PER_WINDOW, TWITCH_JOIN_WINDOW_MS } from "./irc/join-queue.js";
