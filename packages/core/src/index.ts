/**
 * @ovation/core: the library other bots embed. No servers, no storage.
 *
 * The root entry re-exports every area. Each area has its own entry point and barrel; import the one
 * you need to load only its part (see docs/embedding.md):
 * `@ovation/core/contracts`, `/alerts`, `/templates`, `/commands`, `/net`, `/plugins`, `/plugin-kit`.
 * Add new exports to the area's barrel, not here.
 */
export * from "./contracts.js";
export * from "./alerts/index.js";
export * from "./templates/index.js";
export * from "./commands/index.js";
export * from "./net/index.js";
export * from "./plugins/index.js";
export { Backoff, CHAT_SPLIT_PARTS, SendQueue, Timers, jitter, platformNotification, splitChatText, toMicrosecondIso, tokenFragments } from "./plugin-kit/index.js";
export type { BackoffBounds, PlatformNotificationInput, SendQueueOptions } from "./plugin-kit/index.js";
