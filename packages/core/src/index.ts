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

// --- templates
export type { TemplateHostFunctions } from "./templates/host-functions.js";

// --- net (outbound HTTP guard, signing)

// --- commands (bot runtime)

// --- plugins (platform plugin contract)
