/**
 * @ovation/plugin-tiktok: TikTok LIVE comments, gifts, follows, subscriptions, shares and likes
 * through tiktok-live-connector, as a read-only Ovation platform plugin.
 */
export { TikTokPlugin, TIKTOK_PLUGIN_VERSION, READ_ONLY_NOTE } from "./plugin.js";
export { tiktokFactory } from "./factory.js";
export { tiktokPluginOptionsSchema, tiktokSettingsSchema } from "./options.js";
export type { TikTokPluginOptions, TikTokParsedOptions, TikTokSettings } from "./options.js";
export { TIKTOK_ERROR_CODES, TikTokError } from "./errors.js";
export type { TikTokErrorCode } from "./errors.js";
export { mapTikTokMessage, giftPayload } from "./events.js";
export type { TikTokOutcome } from "./events.js";
export { LikeAggregator } from "./likes.js";
export type { LikeWindow } from "./likes.js";
export { TIKTOK_PLATFORM } from "./platform.js";
export { tiktokNotification } from "./notification.js";
export { chatUser, commentFragments, userBadges, userName } from "./chat/map.js";
export { createConnection } from "./connection.js";
export { chatMessageSchema, giftMessageSchema, likeMessageSchema, socialMessageSchema, subNotifyMessageSchema, tiktokUserSchema } from "./wire.js";
export type { TikTokChatMessage, TikTokGiftMessage, TikTokLikeMessage, TikTokUser, UserIdentity } from "./wire.js";
