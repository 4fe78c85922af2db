import type { Logger } from "pino";
import { z } from "zod";
import { chatChannelSchema, chatEventSchema } from "../chat/event.js";
import type { ChatChannel, ChatEvent } from "../chat/event.js";
import { notifySubSchema } from "../notifications/notifysub.js";
import type { NotifySub } from "../notifications/notifysub.js";
import { SEND_AS } from "./contract.js";
import type { PlatformAction, PlatformActionResult } from "./platform-actions.js";
import type {
  ChannelState,
  ChannelStatusReport,
  EmitResult,
  ModerationCapabilities,
  ModerationEvent,
  ModerationTarget,
  OutgoingMessage,
  PlatformLookups,
  PlatformPlugin,
  PluginCapabilities,
  PluginContext,
  PluginMetadata,
  PluginStatus,
  SendAs,
  ServedChannel,
} from "./contract.js";
import { builtInPlatforms, pluginPlatform } from "../alerts/platform-registry.js";
import type { RegisteredPlatform } from "../alerts/platform-registry.js";
import { PLUGIN_ERROR_CODES, PluginError } from "./plugin-errors.js";
import { checkPlugin, formatIssues } from "./metadata.js";
import { RecentIds } from "./recent-ids.js";
import { CORE_VERSION } from "./version.js";

/** An answer of the bot runtime: the host sends it to the channel the chat event came from. */
export interface HostAction {
  text: string;
  /** `say`, `reply`, `action`, `announce` (aliases: `message`, `me`, `announcement`). */
  send_as: string;
  /** Message id to reply to; defaults to the triggering message for `reply`. */
  reply_to?: string | null;
}

/** Who emitted something: the registered plugin's metadata. */
export type PluginSource = Readonly<PluginMetadata>;

/** An event for the channel's public `.chat` room (socket events `message`, `delete-message`, `clear-chat`). */
export type ChatRoomEvent =
  | { event: "message"; platform: string; channel: ChatChannel; payload: ChatEvent }
  | { event: "delete-message"; platform: string; channel: ChatChannel; payload: { id: string; channel: string } }
  | { event: "clear-chat"; platform: string; channel: ChatChannel; payload: { channel: string; user_platform_id?: string; duration_seconds?: number } };

/** Options of a {@link PluginHost}. */
export interface PluginHostOptions {
  logger: Logger;
  /** The running core version plugins are checked against (default {@link CORE_VERSION}). */
  coreVersion?: string;
  /** The bot runtime: a validated chat event in, the answers to send out. */
  runtime?: (event: ChatEvent, source: PluginSource) => Promise<readonly HostAction[]> | readonly HostAction[];
  /** The alert log: a validated, de-duplicated notification from a plugin. */
  alerts?: (notification: NotifySub, source: PluginSource) => void | Promise<void>;
  /** Publishes chat and moderation events to the channel's `.chat` room. */
  chatRoom?: (event: ChatRoomEvent) => void;
  /** How many chat/notification ids each plugin's de-duplication remembers (default 10 000). */
  dedupeCapacity?: number;
}

/** Counters of one plugin since registration. */
export interface PluginCounters {
  chat: number;
  notifications: number;
  moderation: number;
  duplicates: number;
  rejected: number;
  sent: number;
  sendFailures: number;
}

/** Health of one registered plugin, as `GET /health`-style endpoints show it. */
export interface PluginHealth {
  name: string;
  platform: string;
  version: string;
  status: PluginStatus;
  detail: string | null;
  /** When the status last changed (ms since epoch). */
  since: number;
  counters: PluginCounters;
  /** Plugin API 1.1: the state of each channel the host asked the plugin to serve. */
  channels: ChannelStatusReport[];
}

interface Entry {
  plugin: PlatformPlugin;
  metadata: PluginMetadata;
  capabilities: PluginCapabilities;
  logger: Logger;
  status: PluginStatus;
  detail: string | null;
  since: number;
  controller: AbortController | null;
  /**
   * The plugin's connect() resolved (under the current controller): channels wanted before that are
   * served once it does. Not the status, which the plugin may set to connected while still connecting.
   */
  ready: boolean;
  counters: PluginCounters;
  chatIds: RecentIds;
  notificationIds: RecentIds;
  /** Channels the host wants served (by connection id), served again after a reconnect. */
  wanted: Map<number, ServedChannel>;
  channelStates: Map<number, ChannelStatusReport>;
}

const SEND_AS_ALIASES: Readonly<Record<string, SendAs>> = {
  say: "say",
  message: "say",
  chat: "say",
  reply: "reply",
  action: "action",
  me: "action",
  announce: "announce",
  announcement: "announce",
};

/** Maps a runtime `send_as` value (or an alias) to a {@link SendAs}; null when unknown. */
export function normalizeSendAs(value: string): SendAs | null {
  return SEND_AS_ALIASES[value.toLowerCase()] ?? null;
}

const moderationEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("delete-message"), channel: chatChannelSchema, id: z.string().min(1).max(256) }),
  z.object({
    type: z.literal("clear-chat"),
    channel: chatChannelSchema,
    user_platform_id: z.string().max(256).nullable(),
    duration_seconds: z.number().int().positive().max(1_209_600).nullable().optional(),
  }),
]);

/**
 * Registers platform plugins, checks their metadata, and routes what they emit:
 * chat -> `.chat` room + bot runtime -> plugin send; notifications -> alert log; moderation -> `.chat` room.
 */
export class PluginHost {
  readonly #options: PluginHostOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #pending = new Set<Promise<void>>();

  constructor(options: PluginHostOptions) {
    this.#options = options;
  }

  /** Checks and registers a plugin (not yet connected). Throws a {@link PluginError} naming the problem. */
  register(plugin: PlatformPlugin): PluginSource {
    const { metadata, capabilities } = checkPlugin(plugin, this.#options.coreVersion ?? CORE_VERSION);
    if (this.#entries.has(metadata.name)) {
      throw new PluginError(PLUGIN_ERROR_CODES.duplicate, `A plugin named ${metadata.name} is already registered`, {
        details: { plugin: metadata.name },
      });
    }
    const capacity = this.#options.dedupeCapacity ?? 10_000;
    this.#entries.set(metadata.name, {
      plugin,
      metadata: Object.freeze({ ...metadata }),
      capabilities,
      logger: this.#options.logger.child({ plugin: metadata.name }),
      status: "idle",
      detail: null,
      since: Date.now(),
      controller: null,
      ready: false,
      counters: { chat: 0, notifications: 0, moderation: 0, duplicates: 0, rejected: 0, sent: 0, sendFailures: 0 },
      chatIds: new RecentIds(capacity),
      notificationIds: new RecentIds(capacity),
      wanted: new Map(),
      channelStates: new Map(),
    });
    return Object.freeze({ ...metadata });
  }

  /** Names of the registered plugins, in registration order. */
  names(): string[] {
    return [...this.#entries.keys()];
  }

  /** The registered plugin of that name. */
  get(name: string): PlatformPlugin {
    return this.#entry(name).plugin;
  }

  /** Connects every registered plugin that is not connected; a failing plugin is reported, not thrown. */
  async start(): Promise<PluginHealth[]> {
    await Promise.all([...this.#entries.keys()].map((name) => this.connect(name).catch(() => undefined)));
    return this.health();
  }

  /** Connects one plugin. Rejects with a {@link PluginError} when its connect fails. */
  async connect(name: string): Promise<void> {
    const entry = this.#entry(name);
    if (entry.controller && !entry.controller.signal.aborted) return;
    const controller = new AbortController();
    entry.controller = controller;
    entry.ready = false;
    this.#setStatus(entry, "connecting", null);
    try {
      await entry.plugin.connect(this.#context(entry, controller.signal));
      if (entry.status === "connecting") this.#setStatus(entry, "connected", null);
      // Every channel wanted so far is served here, once: serveChannel held back until now (see there).
      entry.ready = !controller.signal.aborted;
      for (const channel of entry.wanted.values()) void this.#serve(entry, channel, controller.signal);
    } catch (cause) {
      controller.abort();
      const message = cause instanceof Error ? cause.message : String(cause);
      this.#setStatus(entry, "failed", message);
      entry.logger.error({ err: cause }, "plugin failed to connect");
      throw new PluginError(PLUGIN_ERROR_CODES.failed, `Plugin ${name} failed to connect: ${message}`, {
        cause,
        details: { plugin: name },
      });
    }
  }

  /** True when the plugin serves the channels the host gives it (plugin API 1.1). */
  servesChannels(name: string): boolean {
    return typeof this.#entry(name).plugin.serveChannel === "function";
  }

  /**
   * Asks a plugin to serve a channel (or serve it again with new tokens): at once when it is
   * connected, else when it connects. Resolves once the plugin answered; a refusal shows as the
   * channel's `failed` state, not as a rejection.
   */
  async serveChannel(name: string, channel: ServedChannel): Promise<void> {
    const entry = this.#entry(name);
    if (!entry.plugin.serveChannel) {
      throw new PluginError(PLUGIN_ERROR_CODES.unsupported, `Plugin ${name} does not serve linked channels (plugin API 1.0)`, { details: { plugin: name } });
    }
    entry.wanted.set(channel.connection_id, channel);
    this.#setChannel(entry, channel, "starting", null);
    // Not before the plugin's connect() resolved, which serves every wanted channel: a plugin that
    // reports itself connected while its connect() still runs (Twitch) would otherwise be asked to
    // serve a channel twice, the second call superseding the first while its chat join waits.
    const signal = entry.controller?.signal;
    if (signal && !signal.aborted && entry.ready) await this.#serve(entry, channel, signal);
  }

  /** Stops serving the channel of a connection (unlinked, bot switched off, account deleted). */
  async releaseChannel(name: string, connectionId: number): Promise<void> {
    const entry = this.#entry(name);
    const known = entry.wanted.delete(connectionId);
    entry.channelStates.delete(connectionId);
    if (!known || !entry.plugin.releaseChannel || !entry.controller || entry.controller.signal.aborted) return;
    try {
      await entry.plugin.releaseChannel(connectionId);
    } catch (err) {
      entry.logger.warn({ err, connection: connectionId }, "plugin failed to release a channel cleanly");
    }
  }

  /** The state of every channel a plugin was asked to serve. */
  channelStatus(name: string): ChannelStatusReport[] {
    return [...this.#entry(name).channelStates.values()].map((c) => ({ ...c, missing_scopes: [...c.missing_scopes] }));
  }

  async #serve(entry: Entry, channel: ServedChannel, signal: AbortSignal): Promise<void> {
    // The host's own "starting": a plugin that said nothing else while serving is serving once it
    // resolves; one that said "starting" itself (a Twitch chat not joined yet) is not, until it says so.
    const starting = entry.channelStates.get(channel.connection_id);
    try {
      await entry.plugin.serveChannel?.(channel);
      if (signal.aborted || entry.wanted.get(channel.connection_id) !== channel) return;
      const now = entry.channelStates.get(channel.connection_id);
      if (now?.state === "starting" && now === starting) this.#setChannel(entry, channel, "serving", null);
    } catch (cause) {
      if (signal.aborted || entry.wanted.get(channel.connection_id) !== channel) return;
      const message = cause instanceof Error ? cause.message : String(cause);
      entry.logger.warn({ err: cause, connection: channel.connection_id }, "plugin did not serve a channel");
      this.#setChannel(entry, channel, "failed", message);
    }
  }

  #setChannel(entry: Entry, channel: Pick<ServedChannel, "connection_id" | "id" | "platform_user_id" | "username">, state: ChannelState, detail: string | null, missing: readonly string[] = []): void {
    const before = entry.channelStates.get(channel.connection_id);
    if (before && before.state === state && before.detail === detail && before.missing_scopes.join(" ") === missing.join(" ")) return;
    entry.channelStates.set(channel.connection_id, {
      connection_id: channel.connection_id,
      channel_id: channel.id,
      platform_user_id: channel.platform_user_id,
      username: channel.username,
      state,
      detail,
      missing_scopes: [...missing],
      since: Date.now(),
    });
    entry.logger.info({ connection: channel.connection_id, state, detail }, "channel status");
  }

  /** Disconnects every plugin and waits for the answers still being sent. */
  async stop(): Promise<void> {
    await Promise.all([...this.#entries.keys()].map((name) => this.#disconnect(name)));
    await this.idle();
  }

  /**
   * Disconnects one plugin (it may be connected again later, as a server standing by for another
   * node does) and waits for the answers still being sent.
   */
  async disconnect(name: string): Promise<void> {
    await this.#disconnect(name);
    await this.idle();
  }

  async #disconnect(name: string): Promise<void> {
    const entry = this.#entry(name);
    if (!entry.controller) return;
    entry.controller.abort();
    entry.controller = null;
    entry.ready = false;
    try {
      await entry.plugin.disconnect();
    } catch (err) {
      entry.logger.warn({ err }, "plugin failed to disconnect cleanly");
    }
    this.#setStatus(entry, "disconnected", null);
    for (const channel of entry.wanted.values()) this.#setChannel(entry, channel, "starting", null);
  }

  /** Resolves once every chat event routed so far has been answered (or failed). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** Health of every registered plugin. */
  health(): PluginHealth[] {
    return [...this.#entries.values()].map((entry) => ({
      name: entry.metadata.name,
      platform: entry.metadata.platform,
      version: entry.metadata.version,
      status: entry.status,
      detail: entry.detail,
      since: entry.since,
      counters: { ...entry.counters },
      channels: [...entry.channelStates.values()].map((c) => ({ ...c, missing_scopes: [...c.missing_scopes] })),
    }));
  }

  /**
   * The platform registry: the built-in platforms, then each platform a registered plugin serves
   * that is not built in (declared display name and alert types, or the platform-neutral types). A
   * plugin of a built-in platform adds the declared types its catalog lacks there.
   */
  platforms(): RegisteredPlatform[] {
    const registry = builtInPlatforms();
    for (const entry of this.#entries.values()) {
      const at = registry.findIndex((p) => p.id === entry.metadata.platform);
      const platform = pluginPlatform(entry.metadata.platform, entry.plugin.platform);
      if (at === -1) registry.push(platform);
      else if ((registry[at]?.alerts.length ?? 0) === 0 && platform.alerts.length > 0) registry[at] = platform;
    }
    return registry;
  }

  /** Platform lookups (`user()`, `channel()`) of the first plugin serving `platform` that offers them. */
  lookups(platform: string): PlatformLookups | null {
    for (const entry of this.#entries.values()) {
      if (entry.metadata.platform === platform && entry.plugin.lookups) return entry.plugin.lookups;
    }
    return null;
  }

  /**
   * Sends through a plugin. A `send_as` the plugin does not declare falls back to `say` (a reply
   * without a message id too), so an answer is never lost for want of a feature.
   */
  async send(name: string, message: OutgoingMessage): Promise<void> {
    const entry = this.#entry(name);
    if (entry.capabilities.send.length === 0) {
      throw new PluginError(PLUGIN_ERROR_CODES.unsupported, `Plugin ${name} is read-only: it cannot send messages`, { details: { plugin: name } });
    }
    let sendAs: SendAs = entry.capabilities.send.includes(message.send_as) ? message.send_as : "say";
    if (sendAs === "reply" && !message.reply_to) sendAs = "say";
    try {
      await entry.plugin.send({ ...message, send_as: sendAs, reply_to: sendAs === "reply" ? message.reply_to : null });
      entry.counters.sent++;
    } catch (cause) {
      entry.counters.sendFailures++;
      const text = cause instanceof Error ? cause.message : String(cause);
      throw new PluginError(PLUGIN_ERROR_CODES.failed, `Plugin ${name} failed to send: ${text}`, { cause, details: { plugin: name } });
    }
  }

  /** Deletes a message through a plugin that declares `moderation.deleteMessage`. */
  async deleteMessage(name: string, channel: ChatChannel, messageId: string): Promise<void> {
    const entry = this.#entry(name);
    if (!entry.capabilities.moderation.deleteMessage || !entry.plugin.deleteMessage) {
      throw new PluginError(PLUGIN_ERROR_CODES.unsupported, `Plugin ${name} cannot delete messages`, { details: { plugin: name } });
    }
    await entry.plugin.deleteMessage(channel, messageId);
  }

  /** Times a user out through a plugin that declares `moderation.timeout`. */
  async timeout(name: string, channel: ChatChannel, userPlatformId: string, seconds: number, reason: string | null = null): Promise<void> {
    const entry = this.#entry(name);
    if (!entry.capabilities.moderation.timeout || !entry.plugin.timeout) {
      throw new PluginError(PLUGIN_ERROR_CODES.unsupported, `Plugin ${name} cannot time users out`, { details: { plugin: name } });
    }
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 1_209_600) {
      throw new PluginError(PLUGIN_ERROR_CODES.eventInvalid, "timeout seconds: must be an integer from 1 to 1209600 (two weeks)", {
        details: { plugin: name, seconds },
      });
    }
    await entry.plugin.timeout(channel, userPlatformId, seconds, reason);
  }

  /** Bans a user through a plugin that declares `moderation.ban`. */
  async ban(name: string, channel: ChatChannel, userPlatformId: string, reason: string | null = null): Promise<void> {
    const entry = this.#entry(name);
    if (!entry.capabilities.moderation.ban || !entry.plugin.ban) {
      throw new PluginError(PLUGIN_ERROR_CODES.unsupported, `Plugin ${name} cannot ban users`, { details: { plugin: name } });
    }
    await entry.plugin.ban(channel, userPlatformId, reason);
  }

  /** The moderation actions a plugin declared (for auto-moderation's "unavailable" report). */
  moderationSupport(name: string): Required<ModerationCapabilities> {
    const { deleteMessage, timeout, ban = false } = this.#entry(name).capabilities.moderation;
    return { deleteMessage, timeout, ban };
  }

  /** The moderation part of one plugin, as auto-moderation's `enforceVerdict` takes it. */
  moderationTarget(name: string): ModerationTarget {
    return {
      support: () => this.moderationSupport(name),
      deleteMessage: (channel, messageId) => this.deleteMessage(name, channel, messageId),
      timeout: (channel, user, seconds, reason) => this.timeout(name, channel, user, seconds, reason),
      ban: (channel, user, reason) => this.ban(name, channel, user, reason),
    };
  }

  /**
   * A platform's own action (shoutout, poll) through the plugin serving `channel`: `unavailable`
   * when the plugin has no platform actions or does not serve that channel, `failed` (with the
   * reason) when the plugin threw; otherwise what the plugin answered.
   */
  async platformAction(name: string, channel: ChatChannel, action: PlatformAction): Promise<PlatformActionResult> {
    const entry = this.#entry(name);
    const actions = entry.plugin.platformActions;
    if (!actions) return { result: "unavailable", reason: `the ${entry.metadata.platform} plugin offers no platform actions` };
    if (!entry.plugin.channels().some((c) => c.id === channel.id && (channel.platform_id === "" || c.platform_id === channel.platform_id))) {
      return { result: "unavailable", reason: `the ${entry.metadata.platform} plugin does not serve this channel` };
    }
    try {
      return await actions.perform(channel, action);
    } catch (err) {
      entry.logger.warn({ err, action: action.type }, "platform action failed");
      return { result: "failed", error: err instanceof Error ? err.message : String(err) };
    }
  }

  #entry(name: string): Entry {
    const entry = this.#entries.get(name);
    if (!entry) {
      throw new PluginError(PLUGIN_ERROR_CODES.notFound, `No plugin named ${name} is registered`, { details: { plugin: name } });
    }
    return entry;
  }

  #setStatus(entry: Entry, status: PluginStatus, detail: string | null): void {
    if (entry.status === status && entry.detail === detail) return;
    entry.status = status;
    entry.detail = detail;
    entry.since = Date.now();
    entry.logger.info({ status, detail }, "plugin status");
  }

  #context(entry: Entry, signal: AbortSignal): PluginContext {
    const refuse = (reason: "invalid" | "duplicate" | "stopped", message: string): EmitResult => {
      if (reason === "invalid") {
        entry.counters.rejected++;
        entry.logger.warn({ code: PLUGIN_ERROR_CODES.eventInvalid }, message);
      } else if (reason === "duplicate") {
        entry.counters.duplicates++;
      }
      return { accepted: false, reason, message };
    };
    const platform = entry.metadata.platform;
    return {
      logger: entry.logger,
      signal,
      emitChat: (raw) => {
        if (signal.aborted) return refuse("stopped", "plugin is disconnected");
        const parsed = chatEventSchema.safeParse(raw);
        if (!parsed.success) return refuse("invalid", `chat event refused: ${formatIssues(parsed.error, "event")}`);
        const event = parsed.data;
        if (event.platform !== platform) {
          return refuse("invalid", `chat event refused: event.platform: must be ${platform}, got ${event.platform}`);
        }
        if (!entry.chatIds.add(event.id)) return refuse("duplicate", `chat event ${event.id} seen already`);
        entry.counters.chat++;
        this.#publish({ event: "message", platform, channel: event.channel, payload: event }, entry);
        this.#answer(entry, event);
        return { accepted: true };
      },
      emitNotification: (raw) => {
        if (signal.aborted) return refuse("stopped", "plugin is disconnected");
        const parsed = notifySubSchema.safeParse(raw);
        if (!parsed.success) return refuse("invalid", `notification refused: ${formatIssues(parsed.error, "notification")}`);
        const notification = parsed.data;
        if (notification.subscription.condition.platform !== platform) {
          return refuse(
            "invalid",
            `notification refused: notification.subscription.condition.platform: must be ${platform}, got ${notification.subscription.condition.platform}`,
          );
        }
        if (!entry.notificationIds.add(notification.notification.id)) {
          return refuse("duplicate", `notification ${notification.notification.id} seen already`);
        }
        entry.counters.notifications++;
        const sink = this.#options.alerts;
        if (sink) {
          this.#track(
            Promise.resolve()
              .then(() => sink(notification, entry.metadata))
              .catch((err: unknown) => entry.logger.error({ err }, "alert log refused a notification")),
          );
        }
        return { accepted: true };
      },
      emitModeration: (raw) => {
        if (signal.aborted) return refuse("stopped", "plugin is disconnected");
        const parsed = moderationEventSchema.safeParse(raw);
        if (!parsed.success) return refuse("invalid", `moderation event refused: ${formatIssues(parsed.error, "event")}`);
        const event: ModerationEvent = parsed.data;
        entry.counters.moderation++;
        if (event.type === "delete-message") {
          this.#publish(
            { event: "delete-message", platform, channel: event.channel, payload: { id: event.id, channel: event.channel.id } },
            entry,
          );
        } else {
          const payload = event.user_platform_id === null
            ? { channel: event.channel.id }
            : typeof event.duration_seconds === "number"
              ? { channel: event.channel.id, user_platform_id: event.user_platform_id, duration_seconds: event.duration_seconds }
              : { channel: event.channel.id, user_platform_id: event.user_platform_id };
          this.#publish({ event: "clear-chat", platform, channel: event.channel, payload }, entry);
        }
        return { accepted: true };
      },
      setStatus: (status, detail = null) => {
        if (signal.aborted) return;
        this.#setStatus(entry, status, detail);
      },
      setChannelStatus: (connectionId, state, detail = null, missingScopes = []) => {
        if (signal.aborted) return;
        const channel = entry.wanted.get(connectionId);
        if (channel) this.#setChannel(entry, channel, state, detail, missingScopes);
      },
    };
  }

  #publish(event: ChatRoomEvent, entry: Entry): void {
    try {
      this.#options.chatRoom?.(event);
    } catch (err) {
      entry.logger.error({ err }, "publishing to the chat room failed");
    }
  }

  #answer(entry: Entry, event: ChatEvent): void {
    const runtime = this.#options.runtime;
    // A read-only plugin (anonymous chat) cannot deliver answers: do not run commands for nothing.
    if (!runtime || entry.capabilities.send.length === 0) return;
    this.#track(
      (async () => {
        let actions: readonly HostAction[];
        try {
          actions = await runtime(event, entry.metadata);
        } catch (err) {
          entry.logger.error({ err, event: event.id }, "bot runtime failed on a chat event");
          return;
        }
        for (const action of actions) {
          const text = action.text.trim();
          if (text === "") continue;
          const sendAs = normalizeSendAs(action.send_as);
          if (!sendAs) {
            entry.logger.warn({ send_as: action.send_as }, `unknown send_as, sent as say (known: ${SEND_AS.join(", ")})`);
          }
          const mode = sendAs ?? "say";
          const replyTo = mode === "reply" ? (action.reply_to ?? event.id) : null;
          try {
            await this.send(entry.metadata.name, { channel: event.channel, text, send_as: mode, reply_to: replyTo });
          } catch (err) {
            entry.logger.error({ err, event: event.id }, "sending an answer failed");
          }
        }
      })(),
    );
  }

  #track(promise: Promise<void>): void {
    this.#pending.add(promise);
    void promise.finally(() => this.#pending.delete(promise));
  }
}
