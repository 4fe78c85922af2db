import type { Logger } from "pino";
import type { ChatChannel, ChatEvent } from "../chat/event.js";
import type { NotifySub } from "../notifications/notifysub.js";
import type { PlatformDeclaration } from "../alerts/platform-declaration.js";
import type { PlatformAction, PlatformActionResult } from "./platform-actions.js";

/** How a bot answer is sent: a plain message, a reply to a message id, a `/me` action, an announcement. */
export const SEND_AS = ["say", "reply", "action", "announce"] as const;
/** One of {@link SEND_AS}. */
export type SendAs = (typeof SEND_AS)[number];

/** A message the host asks a plugin to send to one of its channels. */
export interface OutgoingMessage {
  /** The channel to send to (one of the plugin's {@link PlatformPlugin.channels}). */
  channel: ChatChannel;
  text: string;
  send_as: SendAs;
  /** The platform message id answered, for `send_as: "reply"`; null otherwise. */
  reply_to: string | null;
}

/** Moderation actions a plugin can perform on its platform. */
export interface ModerationCapabilities {
  /** Deletes one message by id. */
  deleteMessage: boolean;
  /** Times a user out for a number of seconds. */
  timeout: boolean;
  /** Bans a user from the channel (absent = false, for plugins written before it existed). */
  ban?: boolean;
}

/**
 * The optional moderation part of the plugin contract, used by auto-moderation and the host. A
 * plugin implements the methods it declares in `capabilities.moderation`; the host refuses the
 * others (`OVATION_ERR_PLUGIN_UNSUPPORTED`) and auto-moderation reports their rules as unavailable.
 */
export interface ModerationActions {
  /** Deletes one message by its platform id. */
  deleteMessage(channel: ChatChannel, messageId: string): Promise<void>;
  /** Times a user out for `seconds` (1 to 1 209 600). */
  timeout(channel: ChatChannel, userPlatformId: string, seconds: number, reason: string | null): Promise<void>;
  /** Bans a user from the channel until a moderator lifts it. */
  ban(channel: ChatChannel, userPlatformId: string, reason: string | null): Promise<void>;
}

/** One plugin's moderation part with what it declares (`PluginHost.moderationTarget`); auto-moderation acts through it. */
export interface ModerationTarget extends ModerationActions {
  support(): Required<ModerationCapabilities>;
}

/**
 * The optional platform-actions part of the plugin contract: the platform's own shoutouts and polls
 * (and the channel lookup a shoutout needs), which the bot modules ask for through the host
 * (`PluginHost.platformAction`). A plugin answers `unavailable` with the reason for an action its
 * platform, its token's scopes or the platform's limits do not allow, and `failed` when it tried.
 */
export interface PlatformActions {
  perform(channel: ChatChannel, action: PlatformAction): Promise<PlatformActionResult>;
}

/** What a plugin can do, declared up front and checked by the host before it routes an action. */
export interface PluginCapabilities {
  /** The `send_as` modes the plugin supports: `say` and more, or none for a read-only plugin (chat is not answered). */
  send: readonly SendAs[];
  moderation: ModerationCapabilities;
}

/** Who a plugin is: checked at registration (see `docs/writing-a-plugin.md`). */
export interface PluginMetadata {
  /** Unique plugin name, lowercase `a-z0-9-` (for example `twitch`, `console`). */
  name: string;
  /** The platform id its chat events and notifications carry (for example `twitch`, `ovation`). */
  platform: string;
  /** The plugin's own version (semver). */
  version: string;
  /** Semver range of @ovation/core versions the plugin works with (for example `^0.1.0`). */
  core: string;
  /** One line describing the plugin. */
  description?: string;
}

/** Something a moderator (or the platform) did to the chat, published to the `.chat` room. */
export type ModerationEvent =
  | { type: "delete-message"; channel: ChatChannel; id: string }
  | {
      type: "clear-chat";
      channel: ChatChannel;
      /** The user whose messages are cleared; null when the whole chat is. */
      user_platform_id: string | null;
      /** For one user: seconds of a timeout; null or absent for a permanent ban (or not known). */
      duration_seconds?: number | null;
    };

/** Connection state of a plugin. */
export const PLUGIN_STATUSES = ["idle", "connecting", "connected", "degraded", "disconnected", "failed"] as const;
/** One of {@link PLUGIN_STATUSES}. */
export type PluginStatus = (typeof PLUGIN_STATUSES)[number];

/** What a plugin reports about its health; `detail` says why in words a user understands. */
export interface PluginStatusReport {
  status: PluginStatus;
  detail: string | null;
}

/** Result of an emit through the context: accepted, or refused with the reason. */
export type EmitResult = { accepted: true } | { accepted: false; reason: "invalid" | "duplicate" | "stopped"; message: string };

/** Platform lookups behind the template functions `user(login)` and `channel(id)`. */
export interface PlatformLookups {
  /** {id, name, type, description, view_count} or null. */
  user(login: string): Promise<{ id: string; name: string; type: string; description: string; view_count: number } | null>;
  /** {id, name, url, language, title, game} or null. */
  channel(id: string): Promise<{ id: string; name: string; url: string; language: string; title: string; game: string } | null>;
}

/**
 * What the host hands a plugin on connect. Every emit is validated at this boundary (zod) and
 * de-duplicated by id, so a plugin cannot push a malformed or repeated event into the service.
 */
export interface PluginContext {
  /** A pino child logger bound to the plugin's name. */
  readonly logger: Logger;
  /** Aborted when the host disconnects the plugin: stop timers and sockets. */
  readonly signal: AbortSignal;
  /** Incoming chat as the chat event object (validated with `chatEventSchema`). */
  emitChat(event: ChatEvent): EmitResult;
  /** A platform event as a NotifySub notification (alert types of the catalog, stream.online/offline, update). */
  emitNotification(notification: NotifySub): EmitResult;
  /** A deleted message or a cleared chat. */
  emitModeration(event: ModerationEvent): EmitResult;
  /** Reports the plugin's connection state. */
  setStatus(status: PluginStatus, detail?: string | null): void;
  /**
   * Reports the state of one served channel (plugin API 1.1), by its connection id. `detail` is
   * shown to the streamer: say what happened and what to do in their words, never a setting name.
   */
  setChannelStatus(connectionId: number, state: ChannelState, detail?: string | null, missingScopes?: readonly string[]): void;
}

/**
 * A channel the host asks a plugin to serve (plugin API 1.1): a user's linked account on the
 * plugin's platform, with the bot switched on. Its tokens come from the credentials service of the
 * factory context, by `connection_id`.
 */
export interface ServedChannel {
  /** The Ovation channel id (the user's id): `ChatChannel.id` of what the plugin emits for it. */
  readonly id: string;
  /** The link's id: the key of the credentials service and of {@link PluginContext.setChannelStatus}. */
  readonly connection_id: number;
  /** The account's id on the platform (broadcaster id, channel id, username for TikTok). */
  readonly platform_user_id: string;
  readonly username: string;
  readonly avatar_url: string;
  /** The OAuth scopes the link granted (empty when the platform has none). */
  readonly scopes: readonly string[];
}

/** States of a served channel, as the host and the dashboard show them. */
export const CHANNEL_STATES = ["starting", "serving", "needs_reconnect", "missing_scope", "failed"] as const;
/** One of {@link CHANNEL_STATES}. */
export type ChannelState = (typeof CHANNEL_STATES)[number];

/** The state of one served channel. */
export interface ChannelStatusReport {
  connection_id: number;
  /** The Ovation channel (user) id. */
  channel_id: string;
  platform_user_id: string;
  username: string;
  state: ChannelState;
  detail: string | null;
  missing_scopes: string[];
  /** When the state last changed (ms since epoch). */
  since: number;
}

/**
 * A platform plugin: turns one platform's chat and events into Ovation's chat events and NotifySub
 * notifications, and sends the bot's answers back; optionally moderates ({@link ModerationActions},
 * present as declared in `capabilities.moderation`). See `docs/writing-a-plugin.md`.
 */
export interface PlatformPlugin extends Partial<ModerationActions> {
  readonly metadata: PluginMetadata;
  readonly capabilities: PluginCapabilities;
  /** The channels the plugin serves (`id` is the Ovation channel id). */
  channels(): readonly ChatChannel[];
  /** Connects to the platform; resolves once the plugin is usable (or rejects with a clear error). */
  connect(context: PluginContext): Promise<void>;
  /** Disconnects and releases every socket and timer. Safe to call twice. */
  disconnect(): Promise<void>;
  /** Sends a message as `send_as` says (only modes declared in `capabilities.send` are asked for). */
  send(message: OutgoingMessage): Promise<void>;
  /** Optional platform lookups for the template functions `user()` and `channel()`. */
  readonly lookups?: PlatformLookups;
  /** Optional platform actions (shoutouts, polls) for the bot modules. */
  readonly platformActions?: PlatformActions;
  /**
   * The platform `metadata.platform` names, for a platform that is not built in: display name and
   * the catalog alert types it emits. Optional: a plugin without it gets the platform-neutral types.
   */
  readonly platform?: PlatformDeclaration;
  /**
   * Plugin API 1.1: starts serving a channel, or serves it again with new tokens or a new name when
   * it is already served. Called after {@link connect}, once per linked channel with the bot on and
   * whenever one is linked, re-linked or switched on. A plugin without it serves what it configures.
   */
  serveChannel?(channel: ServedChannel): Promise<void>;
  /** Plugin API 1.1: stops serving the channel of that connection (unlinked, switched off, account deleted). */
  releaseChannel?(connectionId: number): Promise<void>;
}
