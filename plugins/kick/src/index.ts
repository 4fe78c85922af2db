/**
 * @ovation/plugin-kick: Kick chat, follows, subscriptions, gifts and live status as an Ovation
 * platform plugin: Kick's public API (OAuth 2.1, signed webhooks, chat send) and, without a public
 * URL, Kick's chat socket (unofficial).
 */
export { KickPlugin, KICK_PLUGIN_VERSION, KICK_MAX_MESSAGE, KICK_WEBHOOK_PATH } from "./plugin.js";
export type { KickPluginHooks, WebhookCounts } from "./plugin.js";
export { kickPluginOptionsSchema, kickSettingsSchema } from "./options.js";
export type { KickPluginOptions, KickSettings } from "./options.js";
export { KICK_ERROR_CODES, KickError } from "./errors.js";
export type { KickErrorCode } from "./errors.js";
export { KickApiClient, apiFailure } from "./api/client.js";
export type { ApiFailure, KickApiClientOptions, KickAuth, KickTokens } from "./api/client.js";
export { KICK_EVENTS, chatMessageSentSchema } from "./api/wire.js";
export type { ChatMessageSent, KickEventName, KickUser } from "./api/wire.js";
export { mapWebhookEvent, KICK_SUB_TIER } from "./chat/map.js";
export type { MapOutcome } from "./chat/map.js";
export { kickNotification } from "./chat/notification.js";
export { buildFragments, plainText } from "./chat/fragments.js";
export { kickBadges } from "./chat/badges.js";
export { KICK_PUBLIC_KEY_PEM, parseKickPublicKey, verifyKickSignature } from "./webhook/signature.js";
export { KICK_WEBHOOK_HEADERS, KickWebhookVerifier } from "./webhook/verifier.js";
export type { KickWebhookRequest, KickWebhookVerifierOptions, WebhookRefusal, WebhookVerdict } from "./webhook/verifier.js";
export { mapSocketFrame, WEBHOOK_ONLY_EVENTS } from "./pusher/socket-map.js";
export { KickChatSocket } from "./pusher/socket.js";
export type { KickChatSocketOptions } from "./pusher/socket.js";
export { KICK_PUSHER_URL, pusherFrameSchema } from "./pusher/socket-wire.js";
export type { PusherFrame } from "./pusher/socket-wire.js";
export { kickChannelsPlugin, kickFactory, KICK_SCOPES } from "./channels.js";
export { kickFactory as default } from "./channels.js";
