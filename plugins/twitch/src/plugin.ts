import { PluginError, PLUGIN_ERROR_CODES, RecentIds, definedKeys } from "@ovation/core/contracts";
import type {
  ChannelState,
  ChatChannel,
  ChatEvent,
  PluginCredentials,
  PluginQuota,
  ServedChannel,
  OutgoingMessage,
  PlatformActions,
  PlatformLookups,
  PlatformPlugin,
  PluginCapabilities,
  PluginContext,
  PluginMetadata,
} from "@ovation/core/contracts";
import tmi from "tmi.js";
import type { z } from "zod";
import { TwitchPlatformActions } from "./actions/platform-actions.js";
import type { ActionAccess } from "./actions/platform-actions.js";
import { BroadcasterEventSub } from "./channels/broadcaster.js";
import { TWITCH_ERROR_CODES, TwitchError } from "./errors.js";
import { JoinQueue, TWITCH_JOIN_WINDOW_MS } from "./irc/join-queue.js";
import { mapEventSubNotification } from "./eventsub/map.js";
import { EventSubSocket } from "./eventsub/socket.js";
import type { EventSubNotification } from "./eventsub/wire.js";
import { SUBSCRIPTIONS } from "./eventsub/subscriptions.js";
import { HelixClient } from "./helix/client.js";
import {
  banUser,
  createEventSubSubscription,
  deleteChatMessage,
  getTokenUser,
  getUsersByLogin,
  helixLookups,
  sendAnnouncement,
  timeoutUser,
} from "./helix/endpoints.js";
import { GLOBAL_CHEERMOTE_PREFIXES } from "./irc/fragments.js";
import type { IrcMessage } from "./irc/irc-message.js";
import { normalizeIrcMessage } from "./irc/normalize.js";
import type { NormalizeContext } from "./irc/normalize.js";
import { twitchPluginOptionsSchema } from "./options.js";
import type { TwitchPluginOptions } from "./options.js";

/** The plugin's version (kept equal to package.json). */
export const TWITCH_PLUGIN_VERSION = "0.1.0";

/** Twitch's limit on one chat message. */
const MAX_MESSAGE = 500;

type ParsedOptions = z.output<typeof twitchPluginOptionsSchema>;

/** Line breaks, NUL and (for actions) the CTCP delimiter would break out of one IRC line. */
// eslint-disable-next-line no-control-regex -- matching these control characters is the point
const LINE_BREAKERS = /[\r\n\u0000\u0001]+/g;

/** Callbacks of the Twitch plugin. */
export interface TwitchPluginHooks {
  /** The access token was refreshed: store the new tokens so a restart uses them. */
  onTokensRefreshed?: (tokens: { accessToken: string; refreshToken: string | undefined }) => void;
  /** Plugin API 1.1: the linked channels' tokens (EventSub per broadcaster); without it linked channels get chat only. */
  credentials?: PluginCredentials;
  /** Several nodes: the bot account's join limit is shared by every node's chat connection. */
  quota?: PluginQuota;
}

/** A linked channel the host asked the plugin to serve. */
interface Linked {
  served: ServedChannel;
  login: string;
  joined: boolean;
  broadcaster: BroadcasterEventSub | null;
  /** A state of the link that chat joining does not clear (needs reconnecting, missing scope). */
  sticky: { state: ChannelState; detail: string | null; missing: readonly string[] } | null;
  eventSubLive: boolean;
  /** Ends `serveChannel`'s wait for the join: called when the channel is joined, or released while waiting. */
  endWait?: () => void;
  /** Asks for the JOIN again while the channel is not joined (see `#retryJoin`). */
  retry?: NodeJS.Timeout;
}

/** Makes bot output safe for one IRC line: no line breaks, no leading command character, at most 500 chars. */
export function sanitizeChatText(text: string): string {
  let line = text.replace(LINE_BREAKERS, " ").trim();
  // Twitch would run `/ban x` or `.ban x` as a command: a template must not be able to.
  if (/^[/.\\]/.test(line)) line = `\u200b${line}`;
  return Array.from(line).slice(0, MAX_MESSAGE).join("");
}

/**
 * The Twitch platform plugin: chat over tmi.js (anonymous read-only without credentials, a full bot
 * with a login and token), platform events over EventSub WebSocket, and Helix for announcements,
 * moderation and the `user()`/`channel()` lookups.
 */
/** tmi.js's reasons for a login Twitch refused: it stops retrying after these (the token or user name is wrong). */
const LOGIN_REFUSED = /Login unsuccessful|Login authentication failed|Error logging in|Improperly formatted auth|Invalid NICK/;

export class TwitchPlugin implements PlatformPlugin {
  readonly metadata: PluginMetadata = {
    name: "twitch",
    platform: "twitch",
    version: TWITCH_PLUGIN_VERSION,
    core: "^0.1.0",
    description: "Twitch chat (tmi.js) and EventSub WebSocket",
  };
  readonly capabilities: PluginCapabilities;
  readonly lookups?: PlatformLookups;
  /** Twitch's own shoutouts and polls, with the linked channel's token (or the bot's for a configured channel). */
  readonly platformActions: PlatformActions = { perform: (channel, action) => this.#actions.perform(this.#actionAccess(channel), action) };

  readonly #actions = new TwitchPlatformActions();
  readonly #options: ParsedOptions;
  readonly #helix: HelixClient | null;
  readonly #channels = new Map<string, ChatChannel>();
  readonly #seenChat = new RecentIds(10_000);
  readonly #normalize: NormalizeContext;
  #context: PluginContext | null = null;
  #client: tmi.Client | null = null;
  #eventsub: EventSubSocket | null = null;
  #eventSubLive = false;
  #selfId: string | null = null;
  #joined = new Set<string>();
  #onJoined: (() => void) | null = null;
  /** Logins the operator configured (served with the bot's token). */
  readonly #configured = new Set<string>();
  /** Linked channels by connection id. */
  readonly #linked = new Map<number, Linked>();
  /** The latest `serveChannel` call of each connection (an older one still releasing stops there). */
  readonly #attempts = new Map<number, symbol>();
  readonly #hooks: TwitchPluginHooks;
  #joinQueue: JoinQueue | null = null;

  /**
   * @param hooks.onTokensRefreshed called after Helix refreshed the access token (store the new pair).
   * @throws TwitchError (`OVATION_ERR_TWITCH_CONFIG`) naming each invalid option.
   */
  constructor(options: TwitchPluginOptions, hooks: TwitchPluginHooks = {}) {
    const parsed = twitchPluginOptionsSchema.safeParse(options);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${["options", ...i.path.map(String)].join(".")}: ${i.message}`);
      throw new TwitchError(TWITCH_ERROR_CODES.config, `Twitch plugin options are invalid: ${problems.join("; ")}`, {
        details: { problems },
      });
    }
    this.#options = parsed.data;
    if ((parsed.data.username === undefined) !== (parsed.data.token === undefined)) {
      throw new TwitchError(TWITCH_ERROR_CODES.config, "Twitch plugin options are invalid: options.username and options.token go together");
    }
    this.#hooks = hooks;
    for (const channel of parsed.data.channels) {
      const loginKey = channel.login.toLowerCase();
      this.#channels.set(loginKey, { id: channel.id, platform_id: "", username: loginKey, avatar_url: "" });
      this.#configured.add(loginKey);
    }
    const token = parsed.data.token?.replace(/^oauth:/, "");
    this.#helix =
      token && parsed.data.clientId
        ? new HelixClient({
            tokens: {
              clientId: parsed.data.clientId,
              accessToken: token,
              refreshToken: parsed.data.refreshToken,
              clientSecret: parsed.data.clientSecret,
            },
            ...definedKeys({ baseUrl: parsed.data.helixUrl, tokenUrl: parsed.data.tokenUrl, onTokensRefreshed: hooks.onTokensRefreshed }),
          })
        : null;
    const canSend = token !== undefined;
    this.capabilities = {
      send: canSend ? (this.#helix ? ["say", "reply", "action", "announce"] : ["say", "reply", "action"]) : [],
      moderation: { deleteMessage: this.#helix !== null, timeout: this.#helix !== null, ban: this.#helix !== null },
    };
    if (this.#helix) this.lookups = helixLookups(this.#helix);
    const prefixes = new Set([...GLOBAL_CHEERMOTE_PREFIXES, ...(parsed.data.cheermotePrefixes ?? []).map((p) => p.toLowerCase())]);
    this.#normalize = { channel: (login) => this.#channels.get(login) ?? null, cheerPrefixes: prefixes };
  }

  /** True without a login and token: chat is read, nothing can be sent. */
  get readOnly(): boolean {
    return this.#options.token === undefined;
  }

  channels(): readonly ChatChannel[] {
    return [...this.#channels.values()];
  }

  async connect(context: PluginContext): Promise<void> {
    this.#context = context;
    const logger = context.logger;
    if (this.#helix) {
      this.#helix.useLogger(logger);
      const self = await getTokenUser(this.#helix);
      if (!self) throw new TwitchError(TWITCH_ERROR_CODES.unauthorized, "Helix did not say whom the access token belongs to");
      this.#selfId = self.id;
      for (const user of this.#configured.size === 0 ? [] : await getUsersByLogin(this.#helix, [...this.#configured])) {
        const channel = this.#channels.get(user.login.toLowerCase());
        if (channel) {
          channel.platform_id = user.id;
          channel.avatar_url = user.profile_image_url.slice(0, 2048);
        }
      }
    }
    const reached = await this.#connectChat(context);
    if (this.#helix && this.#configured.size > 0 && (this.#options.eventsub?.enabled ?? true)) await this.#connectEventSub(context);
    // Without Helix a channel's id comes with the join: a chat still out of reach knows none yet.
    const unknown = [...this.#configured].map((l) => this.#channels.get(l)).filter((c) => c !== undefined && c.platform_id === "").map((c) => `#${c?.username}`);
    if (unknown.length > 0 && (reached || this.#helix)) context.setStatus("degraded", `unknown Twitch channel(s): ${unknown.join(", ")}`);
    logger.info({ channels: [...this.#channels.keys()], readOnly: this.readOnly }, "Twitch plugin connected");
  }

  /**
   * Plugin API 1.1: serves a linked channel: the bot account joins its chat (within Twitch's join
   * rate) and, with the link's tokens, the channel gets its own EventSub session whose
   * subscriptions are created with the broadcaster's token (validated now and hourly).
   */
  async serveChannel(served: ServedChannel): Promise<void> {
    const context = this.#context;
    if (!context) throw new TwitchError(TWITCH_ERROR_CODES.chat, "The Twitch plugin is not connected");
    // A later call for the same connection (served again, new tokens) supersedes this one.
    const attempt = Symbol(served.username);
    this.#attempts.set(served.connection_id, attempt);
    await this.#release(served.connection_id);
    if (this.#attempts.get(served.connection_id) !== attempt) return;
    const login = served.username.toLowerCase();
    if (this.#configured.has(login)) {
      context.setChannelStatus(served.connection_id, "serving", "served as configured by the operator");
      return;
    }
    const linked: Linked = { served, login, joined: false, broadcaster: null, sticky: null, eventSubLive: false };
    this.#linked.set(served.connection_id, linked);
    this.#channels.set(login, { id: served.id, platform_id: served.platform_user_id, username: login, avatar_url: served.avatar_url.slice(0, 2048) });
    const joinTimeoutMs = this.#options.joinTimeoutMs ?? 10_000;
    const joined = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, joinTimeoutMs);
      linked.endWait = () => {
        clearTimeout(timer);
        if (linked.retry) clearTimeout(linked.retry);
        resolve();
      };
    });
    this.#joinQueue?.add(login);
    this.#retryJoin(linked, joinTimeoutMs);
    const tokens = this.#hooks.credentials?.tokens(served.connection_id) ?? null;
    const clientId = this.#options.clientId;
    if (tokens?.access_token && clientId && (this.#options.eventsub?.enabled ?? true)) {
      const broadcaster = new BroadcasterEventSub({
        channel: served,
        tokens,
        clientId,
        clientSecret: this.#options.clientSecret,
        helixUrl: this.#options.helixUrl,
        tokenUrl: this.#options.tokenUrl,
        eventsubUrl: this.#options.eventsub?.url ?? "wss://eventsub.wss.twitch.tv/ws",
        context,
        save: (t) => this.#hooks.credentials?.save(served.connection_id, t),
        onState: (state, detail, missing = []) => {
          if (this.#linked.get(served.connection_id) !== linked) return;
          linked.sticky = state === "needs_reconnect" || state === "missing_scope" ? { state, detail, missing } : linked.sticky;
          this.#channelStatus(context, linked, detail);
        },
        onNotification: (notification) => {
          if (this.#linked.get(served.connection_id) === linked) this.#emitEventSub(context, notification);
        },
        onLive: (live) => (linked.eventSubLive = live),
      });
      linked.broadcaster = broadcaster;
      await broadcaster.start();
    }
    await joined;
    // Released (or served again) while waiting: the connection's state is no longer this link's to
    // report; a stale "starting" here would stand over the newer link's "serving" for good.
    if (this.#linked.get(served.connection_id) !== linked) return;
    this.#channelStatus(context, linked, null);
  }

  /** Plugin API 1.1: stops serving a linked channel: its EventSub session closes and the bot parts its chat. */
  async releaseChannel(connectionId: number): Promise<void> {
    // A serveChannel still parting the previous link must not join it after this.
    this.#attempts.delete(connectionId);
    await this.#release(connectionId);
  }

  async #release(connectionId: number): Promise<void> {
    const linked = this.#linked.get(connectionId);
    if (!linked) return;
    this.#linked.delete(connectionId);
    linked.endWait?.();
    linked.broadcaster?.stop();
    if ([...this.#linked.values()].some((l) => l.login === linked.login) || this.#configured.has(linked.login)) return;
    this.#channels.delete(linked.login);
    this.#joined.delete(linked.login);
    this.#joinQueue?.remove(linked.login);
    await this.#client?.part(linked.login).catch(() => undefined);
  }

  /**
   * A JOIN Twitch left unanswered, or one lost with the chat connection, is asked again every
   * `everyMs` (the join timeout) until the channel is joined or released: a channel waiting to join
   * would otherwise wait for ever, its chat unheard.
   */
  #retryJoin(linked: Linked, everyMs: number): void {
    linked.retry = setTimeout(() => {
      if (linked.joined || this.#linked.get(linked.served.connection_id) !== linked) return;
      this.#joinQueue?.add(linked.login);
      this.#retryJoin(linked, everyMs);
    }, everyMs);
    linked.retry.unref?.();
  }

  /**
   * The chat connection is gone, and with it every channel's membership: each linked channel is
   * `starting` again until Twitch confirms its new JOIN. Those JOINs go through the join queue, so
   * they keep to the bot account's join limit (shared by every node): tmi.js would otherwise join
   * again every channel it had joined, one per 300 ms, past the limit with more than 20 channels.
   * The operator's configured channels stay tmi.js's to join again.
   */
  #lostChat(context: PluginContext, client: tmi.Client): void {
    this.#joined.clear();
    const linkedLogins = new Set<string>();
    for (const linked of this.#linked.values()) {
      linkedLogins.add(linked.login);
      if (!linked.joined) continue;
      linked.joined = false;
      this.#channelStatus(context, linked, null);
      if (linked.retry) clearTimeout(linked.retry);
      this.#retryJoin(linked, this.#options.joinTimeoutMs ?? 10_000);
    }
    const rejoined = client.getChannels();
    for (let i = rejoined.length - 1; i >= 0; i--) {
      const login = (rejoined[i] ?? "").replace(/^#/, "");
      if (linkedLogins.has(login) && !this.#configured.has(login)) rejoined.splice(i, 1);
    }
  }

  /** Validates every linked channel's token now (each is also validated hourly). */
  async validateAll(): Promise<void> {
    await Promise.all([...this.#linked.values()].map((l) => l.broadcaster?.validate()));
  }

  /** Linked channels still waiting to be joined (Twitch's join rate). */
  get joinsWaiting(): number {
    return this.#joinQueue?.waiting ?? 0;
  }

  #channelStatus(context: PluginContext, linked: Linked, detail: string | null): void {
    if (linked.sticky) {
      context.setChannelStatus(linked.served.connection_id, linked.sticky.state, linked.sticky.detail, linked.sticky.missing);
      return;
    }
    if (!linked.joined) {
      context.setChannelStatus(linked.served.connection_id, "starting", `waiting to join the chat (Twitch lets a bot join ${this.#options.joinsPer10s} channels per 10 s)`);
      return;
    }
    const notes = [this.readOnly ? "read-only: this server has no Twitch bot account" : null, linked.broadcaster ? null : "chat only: link Twitch again for alerts", detail].filter((n): n is string => n !== null);
    context.setChannelStatus(linked.served.connection_id, "serving", notes.length > 0 ? notes.join("; ") : null);
  }

  async disconnect(): Promise<void> {
    this.#joinQueue?.clear();
    this.#joinQueue = null;
    for (const linked of this.#linked.values()) {
      linked.broadcaster?.stop();
      linked.joined = false;
    }
    this.#eventsub?.stop();
    this.#eventsub = null;
    this.#eventSubLive = false;
    const client = this.#client;
    this.#client = null;
    if (client) {
      client.removeAllListeners();
      await client.disconnect().catch(() => undefined);
    }
    this.#joined.clear();
  }

  async send(message: OutgoingMessage): Promise<void> {
    if (this.readOnly) {
      throw new TwitchError(TWITCH_ERROR_CODES.readOnly, "Twitch chat is read-only: configure a bot username and token to send");
    }
    const channel = this.#served(message.channel);
    const text = message.send_as === "action" ? Array.from(message.text.replace(LINE_BREAKERS, " ").trim()).slice(0, MAX_MESSAGE).join("") : sanitizeChatText(message.text);
    if (text === "") return;
    if (message.send_as === "announce" && this.#helix && this.#selfId && channel.platform_id) {
      await sendAnnouncement(this.#helix, channel.platform_id, this.#selfId, text);
      return;
    }
    const client = this.#client;
    if (!client) throw new TwitchError(TWITCH_ERROR_CODES.chat, "Twitch chat is not connected");
    const target = `#${channel.username}`;
    let line = `PRIVMSG ${target} :${text}`;
    if (message.send_as === "action") line = `PRIVMSG ${target} :\u0001ACTION ${text}\u0001`;
    else if (message.send_as === "reply" && message.reply_to && /^[A-Za-z0-9-]{1,64}$/.test(message.reply_to)) {
      line = `@reply-parent-msg-id=${message.reply_to} ${line}`;
    }
    try {
      await client.raw(line);
    } catch (cause) {
      throw new TwitchError(TWITCH_ERROR_CODES.chat, `Twitch chat refused the message: ${String(cause)}`, { cause });
    }
  }

  async deleteMessage(channel: ChatChannel, messageId: string): Promise<void> {
    const served = this.#served(channel);
    await deleteChatMessage(this.#requireHelix(), served.platform_id, this.#requireSelf(), messageId);
  }

  async timeout(channel: ChatChannel, userPlatformId: string, seconds: number, reason: string | null): Promise<void> {
    const served = this.#served(channel);
    await timeoutUser(this.#requireHelix(), served.platform_id, this.#requireSelf(), userPlatformId, seconds, reason);
  }

  async ban(channel: ChatChannel, userPlatformId: string, reason: string | null): Promise<void> {
    const served = this.#served(channel);
    await banUser(this.#requireHelix(), served.platform_id, this.#requireSelf(), userPlatformId, reason);
  }

  /** Handles one IRC message as tmi.js parsed it (tags still raw); public for the bench and tests. */
  handleIrcMessage(message: IrcMessage): void {
    const context = this.#context;
    if (!context) return;
    const outcome = normalizeIrcMessage(message, this.#normalize);
    if (!outcome) return;
    if (outcome.kind === "room") {
      const channel = this.#channels.get(outcome.login);
      if (channel) {
        if (channel.platform_id === "") channel.platform_id = outcome.roomId;
        this.#joined.add(outcome.login);
        for (const linked of this.#linked.values()) {
          if (linked.login !== outcome.login || linked.joined) continue;
          linked.joined = true;
          linked.endWait?.();
          this.#channelStatus(context, linked, null);
        }
        if ([...this.#configured].every((login) => this.#joined.has(login))) this.#onJoined?.();
      }
      return;
    }
    if (outcome.kind === "moderation") {
      context.emitModeration(outcome.event);
      return;
    }
    if (outcome.kind === "usernotice") {
      // Subs, gifts and raids come from EventSub while it is connected; from IRC otherwise.
      const linked = [...this.#linked.values()].find((l) => l.served.id === outcome.event?.channel.id || l.login === outcome.event?.channel.username);
      if (!(linked ? linked.eventSubLive : this.#eventSubLive)) for (const notification of outcome.notifications) this.#emitEventSub(context, notification);
      if (outcome.event) this.#emitChatOnce(context, outcome.event);
      return;
    }
    this.#emitChatOnce(context, outcome.event);
  }

  /** True while the EventSub session is up with every subscription in place. */
  get eventSubLive(): boolean {
    return this.#eventSubLive;
  }

  #emitChatOnce(context: PluginContext, event: ChatEvent): void {
    // Twitch may replay messages across a reconnect: each id counts once.
    if (!this.#seenChat.add(event.id)) return;
    context.emitChat(event);
  }

  /** Maps an EventSub notification (from the socket, or rewritten from IRC) and emits it. */
  #emitEventSub(context: PluginContext, notification: EventSubNotification): void {
    const mapped = mapEventSubNotification(notification);
    if (!mapped.ok) {
      context.logger.warn({ type: notification.subscription.type }, mapped.reason);
      return;
    }
    for (const mappedNotification of mapped.notifications) context.emitNotification(mappedNotification);
  }

  /** Connects chat; false when the server is out of reach for now (tmi.js keeps retrying). */
  async #connectChat(context: PluginContext): Promise<boolean> {
    const options = this.#options;
    const token = options.token?.replace(/^oauth:/, "");
    const helix = this.#helix;
    const client = new tmi.Client({
      options: { skipUpdatingEmotesets: true, joinInterval: 300 },
      connection: {
        reconnect: true,
        reconnectInterval: options.ircReconnectMs ?? 1000,
        maxReconnectInterval: 30_000,
        ...(options.irc ? { server: options.irc.server, port: options.irc.port, secure: options.irc.secure } : { secure: true }),
      },
      ...(options.username && token
        ? { identity: { username: options.username.toLowerCase(), password: () => `oauth:${helix ? helix.accessToken : token}` } }
        : {}),
      channels: [...this.#configured],
      logger: {
        info: (m: string) => context.logger.debug(m),
        warn: (m: string) => context.logger.warn(m),
        error: (m: string) => context.logger.error(m),
      },
    });
    this.#client = client;
    client.on("raw_message", (_cloned, message) => this.handleIrcMessage(message as IrcMessage));
    // Without EventSub, chat is all the plugin has: losing it is disconnected, not "partly working".
    client.on("disconnected", (reason) => {
      context.setStatus(this.#eventSubLive ? "degraded" : "disconnected", `Twitch chat disconnected: ${reason}; reconnecting`);
      if (this.#client === client) this.#lostChat(context, client);
    });
    client.on("connected", () => {
      // A JOIN sent while the connection was down (or before it first came up) was lost: tmi.js
      // joins again only what it had joined, so every linked channel not joined yet is queued again.
      for (const linked of this.#linked.values()) if (!linked.joined) this.#joinQueue?.add(linked.login);
      if ([...this.#configured].every((login) => this.#joined.has(login))) context.setStatus("connected", null);
    });
    // Linked channels are joined through the queue (Twitch's join rate), several per JOIN line.
    // Twitch counts joins per bot account: with several nodes their chat connections share one budget.
    const quota = this.#hooks.quota;
    const account = (this.#options.username ?? "anonymous").toLowerCase();
    const shared = quota ? (wanted: number) => quota.take(`twitch:joins:${account}`, wanted, this.#options.joinsPer10s, TWITCH_JOIN_WINDOW_MS) : undefined;
    this.#joinQueue = new JoinQueue((line) => void client.raw(line).catch((err: unknown) => context.logger.warn({ err: String(err) }, "JOIN not sent")), this.#options.joinsPer10s, TWITCH_JOIN_WINDOW_MS, shared);
    for (const linked of this.#linked.values()) this.#joinQueue.add(linked.login);
    const joined = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), options.joinTimeoutMs ?? 10_000);
      this.#onJoined = () => {
        clearTimeout(timer);
        context.setStatus("connected", null);
        resolve(true);
      };
      if (this.#configured.size === 0) this.#onJoined();
    });
    try {
      await client.connect();
    } catch (cause) {
      // A refused login is the settings' fault; anything else (no network, Twitch away) tmi.js
      // retries by itself, so the plugin is not failed but disconnected until a retry gets through.
      if (LOGIN_REFUSED.test(String(cause))) throw new TwitchError(TWITCH_ERROR_CODES.chat, `Twitch chat connection failed: ${String(cause)}`, { cause });
      context.setStatus("disconnected", `Twitch chat unreachable (${String(cause)}); reconnecting`);
      return false;
    }
    if (!(await joined)) {
      const missing = [...this.#configured].filter((login) => !this.#joined.has(login));
      context.setStatus("degraded", `not joined yet: ${missing.map((l) => `#${l}`).join(", ")}`);
    }
    return true;
  }

  async #connectEventSub(context: PluginContext): Promise<void> {
    const helix = this.#requireHelix();
    const selfId = this.#requireSelf();
    const settings = this.#options.eventsub;
    const socket = new EventSubSocket({
      url: settings?.url ?? "wss://eventsub.wss.twitch.tv/ws",
      logger: context.logger,
      ...definedKeys({ keepaliveGraceMs: settings?.keepaliveGraceMs, reconnectDelayMs: settings?.reconnectDelayMs }),
      onSession: async (sessionId) => {
        const failures: string[] = [];
        for (const login of this.#configured) {
          const channel = this.#channels.get(login);
          if (!channel || channel.platform_id === "") continue;
          for (const spec of SUBSCRIPTIONS) {
            try {
              await createEventSubSubscription(helix, { type: spec.type, version: spec.version, condition: spec.condition(channel.platform_id, selfId) }, sessionId);
            } catch (err) {
              const status = err instanceof TwitchError ? err.details.status : undefined;
              if (status === 409) continue;
              failures.push(`${spec.type} for #${channel.username}${status === 403 && spec.scope ? ` (needs scope ${spec.scope})` : ""}`);
            }
          }
        }
        if (failures.length > 0) throw new Error(failures.join(", "));
      },
      onNotification: (notification) => this.#emitEventSub(context, notification),
      onRevocation: (subscription) => {
        context.logger.warn({ type: subscription.type, status: subscription.status }, "EventSub subscription revoked");
        context.setStatus("degraded", `EventSub ${subscription.type} revoked (${subscription.status})`);
      },
      onState: (state, detail) => {
        // IRC stands in for EventSub (subs, gifts, raids) unless every subscription is in place.
        this.#eventSubLive = state === "connected" && detail === null;
        if (state === "reconnecting") context.setStatus("degraded", detail);
        else context.setStatus(detail ? "degraded" : "connected", detail);
      },
    });
    this.#eventsub = socket;
    try {
      await socket.start();
    } catch (err) {
      context.setStatus("degraded", `EventSub unavailable, retrying: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  #served(channel: ChatChannel): ChatChannel {
    for (const served of this.#channels.values()) {
      if (served.id === channel.id && (channel.username === "" || served.username === channel.username.toLowerCase())) return served;
    }
    throw new PluginError(PLUGIN_ERROR_CODES.notFound, `The Twitch plugin does not serve channel ${channel.username || channel.id}`);
  }

  /** The Helix access of a channel's platform actions: the broadcaster's token when linked, else the bot's. */
  #actionAccess(channel: ChatChannel): ActionAccess | null {
    const linked = [...this.#linked.values()].find((l) => l.served.id === channel.id && l.broadcaster !== null);
    if (linked?.broadcaster) {
      const id = linked.served.platform_user_id;
      return { helix: linked.broadcaster.helix, broadcasterId: id, moderatorId: id, scopes: linked.broadcaster.scopes, broadcasterToken: true };
    }
    const served = [...this.#channels.values()].find((c) => c.id === channel.id && c.platform_id !== "");
    if (!served || !this.#helix || !this.#selfId) return null;
    return { helix: this.#helix, broadcasterId: served.platform_id, moderatorId: this.#selfId, scopes: null, broadcasterToken: served.platform_id === this.#selfId };
  }

  #requireHelix(): HelixClient {
    if (!this.#helix) throw new TwitchError(TWITCH_ERROR_CODES.readOnly, "This needs the Twitch API: configure a client id and token");
    return this.#helix;
  }

  #requireSelf(): string {
    if (!this.#selfId) throw new TwitchError(TWITCH_ERROR_CODES.chat, "The Twitch plugin is not connected");
    return this.#selfId;
  }
}
