/**
 * @ovation/core/plugin-kit: small runtime helpers platform plugins share (a paced send queue and
 * chat text splitting, NotifySub timestamps, chat fragments around emote/mention tokens, timers a plugin can drop on disconnect, reconnect
 * backoff, command permission levels from badges, NotifySub notifications in the documented
 * shape, setting schemas and the host's view of a plugin's settings). Pure code that loads zod only (like `/contracts`) and no Node built-in, so a plugin can
 * take it beside `/contracts` without loading the sandbox, undici or pino.
 */
export { splitChatText, SendQueue, CHAT_SPLIT_PARTS } from "./send-queue.js";
export type { SendQueueOptions } from "./send-queue.js";
export { toMicrosecondIso } from "./time.js";
export { tokenFragments } from "./fragments.js";
export { platformNotification } from "./notification.js";
export type { PlatformNotificationInput } from "./notification.js";
export { hostSettings, httpOriginSchema, httpUrlSchema, oauthTokensSchema } from "./setting-schemas.js";
export type { HostSetting } from "./setting-schemas.js";
export { Timers } from "./plugin-timers.js";
export { Backoff, jitter } from "./backoff.js";
export type { BackoffBounds } from "./backoff.js";
export { PERMISSION_LEVELS, permissionLevelOf } from "../commands/permission-levels.js";
export type { PermissionLevelName } from "../commands/permission-levels.js";
export { ChannelPlugins } from "./channel-plugins.js";
export type { ChannelFailure, ChannelPluginsOptions } from "./channel-plugins.js";
