/**
 * @ovation/plugin-youtube: YouTube live chat, Super Chats, memberships and new subscribers over
 * the YouTube Data API v3, as an Ovation platform plugin.
 */
export { YouTubePlugin, YOUTUBE_PLUGIN_VERSION, YOUTUBE_MAX_MESSAGE } from "./plugin.js";
export type { YouTubePluginHooks } from "./plugin.js";
export { YOUTUBE_DEFAULT_DAILY_QUOTA, youtubePluginOptionsSchema, youtubeSettingsSchema } from "./options.js";
export type { YouTubePluginOptions, YouTubeSettings } from "./options.js";
export { YOUTUBE_ERROR_CODES, YouTubeError } from "./errors.js";
export type { YouTubeErrorCode } from "./errors.js";
export { DataApiClient, apiFailure } from "./api/client.js";
export type { ApiFailure, DataApiClientOptions, GoogleTokens } from "./api/client.js";
export { ProjectQuota, QuotaBudget, QUOTA_COSTS, pacificDay } from "./api/quota.js";
export type { QuotaBudgetOptions, QuotaMethod, QuotaSnapshot, SharedCounts } from "./api/quota.js";
export { liveChatMessageSchema } from "./api/wire.js";
export type { LiveChatMessage, LiveBroadcast } from "./api/wire.js";
export { mapLiveChatMessage, microsToAmount, youtubeNotification } from "./chat/map.js";
export type { MapOutcome } from "./chat/map.js";
export { buildFragments } from "./chat/fragments.js";
export { authorBadges, authorPermission, authorRole } from "./chat/badges.js";
export { youtubeChannelsPlugin, youtubeFactory } from "./channels.js";
export { youtubeFactory as default } from "./channels.js";
