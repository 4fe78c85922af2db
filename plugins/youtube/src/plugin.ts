import { RecentIds, definedKeys } from "@ovation/core/contracts";
import type { ChatChannel, OutgoingMessage, PlatformPlugin, PluginCapabilities, PluginContext, PluginMetadata } from "@ovation/core/contracts";
import { SendQueue, Timers, splitChatText } from "@ovation/core/plugin-kit";
import type { z } from "zod";
import { apiFailure, DataApiClient } from "./api/client.js";
import type { GoogleTokens } from "./api/client.js";
import { deleteChatMessage, getActiveBroadcast, getMyChannel, insertChatMessage, listChatMessages, listRecentSubscribers } from "./api/endpoints.js";
import { QuotaBudget } from "./api/quota.js";
import type { ProjectQuota, QuotaSnapshot } from "./api/quota.js";
import { subscriptionSchema } from "./api/wire.js";
import { mapLiveChatMessage, youtubeNotification } from "./chat/map.js";
import { YOUTUBE_ERROR_CODES, YouTubeError } from "./errors.js";
import { youtubePluginOptionsSchema } from "./options.js";
import type { YouTubePluginOptions } from "./options.js";

/** The plugin's version (kept equal to package.json). */
export const YOUTUBE_PLUGIN_VERSION = "0.1.0";
/** YouTube's limit on one live chat message, in characters; longer answers are split (at most three messages). */
export const YOUTUBE_MAX_MESSAGE = 200;

type ParsedOptions = z.output<typeof youtubePluginOptionsSchema>;

/** Callbacks of the YouTube plugin. */
export interface YouTubePluginHooks {
  /** The access token was refreshed: persist the new tokens (awaited; a restart must use them). */
  onTokensRefreshed?: (tokens: GoogleTokens) => void | Promise<void>;
  /** The plugin learned which YouTube channel the tokens belong to (at connect, or once Google answers). */
  onChannel?: (channel: ChatChannel) => void;
  /** With several nodes: the project's quota as every node spends it (see ProjectQuota). */
  project?: ProjectQuota;
  /** This channel's share of the project's daily quota now (several channels share one project), read when it spends. */
  share?: () => number;
}

/** The live broadcast being followed. */
interface Live {
  broadcastId: string;
  title: string;
  liveChatId: string;
  since: number;
  pageToken: string | undefined;
  /** Items published before this are history already shown before the plugin started. */
  skipBefore: number;
}

const REVOKED_FIX = "reconnect YouTube under Connections";

/**
 * The YouTube platform plugin: finds the channel's live broadcast, polls its live chat with
 * liveChatMessages.list (chat events, deletions, bans, Super Chats, Super Stickers, memberships),
 * polls new subscribers for follows, and answers through liveChatMessages.insert, all inside a
 * daily quota budget.
 */
export class YouTubePlugin implements PlatformPlugin {
  readonly metadata: PluginMetadata = {
    name: "youtube",
    platform: "youtube",
    version: YOUTUBE_PLUGIN_VERSION,
    core: "^0.1.0",
    description: "YouTube live chat, Super Chats, memberships and subscribers (Data API v3)",
  };
  readonly capabilities: PluginCapabilities = { send: ["say"], moderation: { deleteMessage: true, timeout: false } };

  readonly #options: ParsedOptions;
  readonly #hooks: YouTubePluginHooks;
  readonly #quota: QuotaBudget;
  readonly #seen = new RecentIds(20_000);
  readonly #channel: ChatChannel;
  readonly #malformedKinds = new Set<string>();
  #malformedCount = 0;
  /** When the plugin was asked to connect: chat published before it is history, after it is answered (even before the first poll). */
  #connectedAt = 0;
  #api: DataApiClient | null = null;
  #context: PluginContext | null = null;
  #queue: SendQueue;
  #live: Live | null = null;
  #chatDelayMs = 0;
  #subscriberBaseline: Set<string> | null = null;
  #timers = new Timers();

  /**
   * @param hooks.onTokensRefreshed persists refreshed tokens.
   * @throws YouTubeError (`OVATION_ERR_YOUTUBE_CONFIG`) naming each invalid setting.
   */
  constructor(options: YouTubePluginOptions, hooks: YouTubePluginHooks = {}) {
    const parsed = youtubePluginOptionsSchema.safeParse(options);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${["settings", ...i.path.map(String)].join(".")}: ${i.message}`);
      throw new YouTubeError(YOUTUBE_ERROR_CODES.config, `YouTube plugin settings are invalid: ${problems.join("; ")}`, { details: { problems } });
    }
    this.#options = parsed.data;
    this.#hooks = hooks;
    const q = parsed.data.quota;
    this.#quota = new QuotaBudget({ dailyUnits: q.dailyUnits, streamSeconds: q.streamHours * 3600, reserveUnits: q.reserveUnits, project: hooks.project ?? null, ...(hooks.share ? { share: hooks.share } : {}) });
    this.#channel = { id: parsed.data.channelId, platform_id: "", username: "", avatar_url: "" };
    this.#queue = new SendQueue({ limit: parsed.data.sendQueueLimit, gapMs: parsed.data.sendGapMs });
  }

  channels(): readonly ChatChannel[] {
    return [this.#channel];
  }

  /** Units used and left today. */
  quota(): QuotaSnapshot {
    return this.#quota.snapshot();
  }

  /** Gives this channel its share of the project's daily quota (several channels share one project). */
  setQuotaShare(dailyUnits: number): void {
    this.#quota.setDailyUnits(dailyUnits, this.#options.quota.reserveUnits);
  }

  /** The live chat followed now, or null when offline. */
  get liveChatId(): string | null {
    return this.#live?.liveChatId ?? null;
  }

  /** Messages skipped because they were malformed or of an unknown type. */
  get malformedCount(): number {
    return this.#malformedCount;
  }

  async connect(context: PluginContext): Promise<void> {
    this.#context = context;
    this.#connectedAt = Date.now();
    const o = this.#options;
    if (!o.tokens) throw new YouTubeError(YOUTUBE_ERROR_CODES.unauthorized, `No Google tokens for YouTube: ${REVOKED_FIX}`);
    this.#queue = new SendQueue({ limit: o.sendQueueLimit, gapMs: o.sendGapMs });
    this.#api = new DataApiClient({
      apiUrl: o.apiUrl,
      tokenUrl: o.tokenUrl,
      clientId: o.clientId,
      clientSecret: o.clientSecret,
      tokens: { accessToken: o.tokens.accessToken ?? null, refreshToken: o.tokens.refreshToken, expiresAt: o.tokens.expiresAt ?? 0 },
      quota: this.#quota,
      refreshMarginMs: o.refreshMarginSeconds * 1000,
      logger: context.logger,
      ...definedKeys({ onTokensRefreshed: this.#hooks.onTokensRefreshed }),
    });
    try {
      await this.#learnChannel(context);
    } catch (err) {
      if (err instanceof YouTubeError && err.code === YOUTUBE_ERROR_CODES.unauthorized) throw new YouTubeError(err.code as typeof YOUTUBE_ERROR_CODES.unauthorized, `${err.message}; ${REVOKED_FIX}`, { cause: err });
      if (err instanceof YouTubeError && err.details.reason === "noChannel") throw err;
      // Google unreachable or failing: connect anyway, the loop retries with backoff.
      context.setStatus("degraded", `YouTube is not answering yet, retrying: ${err instanceof Error ? err.message : String(err)}`);
    }
    void this.#chatLoop(context, true);
    if (o.subscribersPollSeconds > 0) void this.#subscribersLoop(context);
  }

  /** Reads the token's channel (channels.list) and tells the `onChannel` hook. */
  async #learnChannel(context: PluginContext): Promise<void> {
    const me = await getMyChannel(this.#requireApi());
    if (!me) throw new YouTubeError(YOUTUBE_ERROR_CODES.api, "The linked Google account has no YouTube channel", { details: { reason: "noChannel" } });
    Object.assign(this.#channel, { platform_id: me.id, username: me.name, avatar_url: me.avatar.slice(0, 2048) });
    context.logger.info({ channel: me.id }, "YouTube plugin connected");
    this.#hooks.onChannel?.({ ...this.#channel });
  }

  async disconnect(): Promise<void> {
    this.#queue.stop(() => new YouTubeError(YOUTUBE_ERROR_CODES.offline, "The YouTube plugin was disconnected before the answer was sent"));
    this.#timers.clear();
    this.#context = null;
  }

  async send(message: OutgoingMessage): Promise<void> {
    const context = this.#context;
    const parts = splitChatText(message.text, YOUTUBE_MAX_MESSAGE);
    for (const part of parts) {
      try {
        await this.#queue.push(
          () => this.#insert(part),
          () => new YouTubeError(YOUTUBE_ERROR_CODES.sendQueueFull, `The YouTube send queue is full (${this.#options.sendQueueLimit} waiting): answer refused`),
        );
      } catch (err) {
        context?.logger.warn({ err, text: part.slice(0, 80) }, "YouTube answer not sent");
        throw err;
      }
    }
  }

  async deleteMessage(channel: ChatChannel, messageId: string): Promise<void> {
    void channel;
    await deleteChatMessage(this.#requireApi(), messageId);
  }

  async #insert(text: string): Promise<void> {
    const live = this.#live;
    if (!live) throw new YouTubeError(YOUTUBE_ERROR_CODES.offline, "Nothing is live on YouTube: there is no live chat to answer in");
    if (!this.#quota.allows("liveChatMessages.insert", false)) {
      throw new YouTubeError(YOUTUBE_ERROR_CODES.quota, `Not sent: the daily YouTube budget is used up (${this.#quota.describe()})`);
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await insertChatMessage(this.#requireApi(), live.liveChatId, text);
        this.#reportStatus();
        return;
      } catch (err) {
        const failure = apiFailure(err);
        const limited = failure !== null && (failure.status === 429 || failure.reason === "rateLimitExceeded");
        if (!limited || attempt >= 2) throw err;
        await this.#timers.sleep(failure.retryAfterMs ?? this.#options.backoffMs.min * 2 ** attempt);
      }
    }
  }

  /** Emits what one raw liveChatMessage becomes; public for the bench and tests. */
  handleRawMessage(raw: unknown): void {
    const context = this.#context;
    if (!context) return;
    const outcome = mapLiveChatMessage(raw, this.#channel);
    switch (outcome.kind) {
      case "chat":
        if (this.#seen.add(outcome.event.id)) context.emitChat(outcome.event);
        return;
      case "moderation":
        context.emitModeration(outcome.event);
        return;
      case "alert":
        if (!this.#seen.add(outcome.notification.notification.id)) return;
        context.emitNotification(outcome.notification);
        if (outcome.chat) context.emitChat(outcome.chat);
        return;
      case "ended":
        this.#goOffline(context, "the live chat ended");
        return;
      case "ignored":
        return;
      case "malformed":
        this.#malformedCount++;
        if (!this.#malformedKinds.has(outcome.type)) {
          this.#malformedKinds.add(outcome.type);
          context.logger.warn({ type: outcome.type, reason: outcome.reason }, "YouTube chat message skipped (logged once per kind)");
        }
        return;
    }
  }

  async #chatLoop(context: PluginContext, atConnect: boolean): Promise<void> {
    const o = this.#options;
    let backoff = o.backoffMs.min;
    let first = atConnect;
    while (!context.signal.aborted && this.#context === context) {
      let delay: number;
      try {
        if (this.#channel.platform_id === "") await this.#learnChannel(context);
        if (!this.#live) {
          const found = await this.#findBroadcast(context, first);
          first = false;
          delay = found ? 0 : o.offlinePollSeconds * 1000;
        } else {
          delay = await this.#pollChat(context, this.#live);
        }
        backoff = o.backoffMs.min;
        this.#reportStatus();
      } catch (err) {
        delay = this.#failed(context, err, backoff);
        backoff = Math.min(o.backoffMs.max, backoff * 2);
      }
      await this.#timers.sleep(delay);
    }
  }

  async #findBroadcast(context: PluginContext, atConnect: boolean): Promise<boolean> {
    const broadcast = await getActiveBroadcast(this.#requireApi());
    if (!broadcast) return false;
    const now = Date.now();
    this.#live = {
      broadcastId: broadcast.id,
      title: broadcast.snippet.title ?? "",
      liveChatId: broadcast.snippet.liveChatId,
      since: broadcast.snippet.actualStartTime ? Date.parse(broadcast.snippet.actualStartTime) || now : now,
      pageToken: undefined,
      skipBefore: atConnect ? this.#connectedAt : 0,
    };
    const id = `online-${broadcast.id}`;
    if (this.#seen.add(id)) {
      context.emitNotification(youtubeNotification("stream.online", id, broadcast.snippet.actualStartTime ?? new Date(now).toISOString(), this.#channel, [], broadcast));
    }
    context.logger.info({ broadcast: broadcast.id }, "YouTube broadcast is live");
    return true;
  }

  async #pollChat(context: PluginContext, live: Live): Promise<number> {
    const o = this.#options;
    const extra = o.subscribersPollSeconds > 0 ? 1 / o.subscribersPollSeconds : 0;
    // The day's polling share is spent: no chat until the budget resets (looked at once a minute).
    if (!this.#quota.allows("liveChatMessages.list", true)) return 60_000;
    const page = await listChatMessages(this.#requireApi(), live.liveChatId, live.pageToken);
    for (const item of page.items) {
      if (live.skipBefore > 0) {
        const published = Date.parse(String((item as { snippet?: { publishedAt?: unknown } } | null)?.snippet?.publishedAt ?? ""));
        if (!Number.isNaN(published) && published < live.skipBefore) continue;
      }
      this.handleRawMessage(item);
      if (this.#live !== live) break;
    }
    live.skipBefore = 0;
    if (page.nextPageToken) live.pageToken = page.nextPageToken;
    if (page.offlineAt && this.#live === live) this.#goOffline(context, "the stream went offline");
    if (this.#live !== live) return o.offlinePollSeconds * 1000;
    this.#chatDelayMs = this.#quota.chatPollDelay({
      platformMs: page.pollingIntervalMillis ?? 0,
      liveForMs: Date.now() - live.since,
      extraUnitsPerSecond: extra,
      minMs: o.minChatPollMs,
    });
    return this.#chatDelayMs;
  }

  #goOffline(context: PluginContext, why: string): void {
    const live = this.#live;
    if (!live) return;
    this.#live = null;
    const id = `offline-${live.broadcastId}`;
    if (this.#seen.add(id)) context.emitNotification(youtubeNotification("stream.offline", id, new Date().toISOString(), this.#channel, [], { broadcastId: live.broadcastId }));
    context.logger.info({ broadcast: live.broadcastId }, `YouTube broadcast over: ${why}`);
    this.#reportStatus();
  }

  /** Handles a failed poll and returns how long to wait. */
  #failed(context: PluginContext, err: unknown, backoff: number): number {
    const jitter = (ms: number): number => Math.round(ms * (0.8 + Math.random() * 0.4));
    const failure = apiFailure(err);
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof YouTubeError && err.code === YOUTUBE_ERROR_CODES.unauthorized) {
      context.setStatus("failed", `${message.includes("Connections") ? message : `${message}; ${REVOKED_FIX}`}`);
      return Math.max(this.#options.offlinePollSeconds * 1000, 60_000);
    }
    if (err instanceof YouTubeError && err.code === YOUTUBE_ERROR_CODES.quota) {
      context.setStatus("degraded", `${message}; ${this.#quota.describe()}`);
      return 30 * 60_000;
    }
    if (failure && this.#live && (failure.reason === "liveChatEnded" || failure.reason === "liveChatNotFound" || failure.reason === "liveChatDisabled")) {
      this.#goOffline(context, failure.reason);
      return this.#options.offlinePollSeconds * 1000;
    }
    if (failure && (failure.status === 429 || failure.reason === "rateLimitExceeded")) {
      const wait = Math.max(failure.retryAfterMs ?? 0, jitter(backoff));
      context.setStatus("degraded", `YouTube rate limit; retrying in ${Math.round(wait / 1000)} s; ${this.#quota.describe()}`);
      return wait;
    }
    context.logger.warn({ err }, "YouTube poll failed");
    context.setStatus("degraded", `${message}; retrying; ${this.#quota.describe()}`);
    return jitter(backoff);
  }

  async #subscribersLoop(context: PluginContext): Promise<void> {
    const everyMs = this.#options.subscribersPollSeconds * 1000;
    while (!context.signal.aborted && this.#context === context) {
      try {
        if (this.#channel.platform_id !== "" && this.#quota.allows("subscriptions.list", true)) await this.#pollSubscribers(context);
      } catch (err) {
        context.logger.warn({ err }, "YouTube subscriber poll failed");
      }
      await this.#timers.sleep(everyMs);
    }
  }

  async #pollSubscribers(context: PluginContext): Promise<void> {
    const page = await listRecentSubscribers(this.#requireApi());
    const subs = page.items.flatMap((item) => {
      const parsed = subscriptionSchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
    const baseline = this.#subscriberBaseline;
    if (baseline === null) {
      // First look: who already subscribed is not news.
      this.#subscriberBaseline = new Set(subs.map((s) => s.subscriberSnippet.channelId));
      return;
    }
    for (const sub of [...subs].reverse()) {
      const channelId = sub.subscriberSnippet.channelId;
      if (baseline.has(channelId)) continue;
      baseline.add(channelId);
      const id = `follow-${sub.id}`;
      if (!this.#seen.add(id)) continue;
      context.emitNotification(youtubeNotification("follow", id, new Date().toISOString(), this.#channel, { name: sub.subscriberSnippet.title }, sub));
    }
  }

  #reportStatus(): void {
    const context = this.#context;
    if (!context) return;
    const live = this.#live;
    const where = live
      ? `live${live.title ? ` "${live.title.slice(0, 80)}"` : ""}; chat polled every ${(this.#chatDelayMs / 1000).toFixed(1)} s`
      : `no live broadcast; checking every ${this.#options.offlinePollSeconds} s`;
    const spent = live !== null && !this.#quota.allows("liveChatMessages.list", true);
    const note = spent ? " (chat paused: the day's polling budget is spent; it resets at midnight Pacific)" : "";
    context.setStatus(spent ? "degraded" : "connected", `${where}${note}; ${this.#quota.describe()}`);
  }

  #requireApi(): DataApiClient {
    if (!this.#api) throw new YouTubeError(YOUTUBE_ERROR_CODES.offline, "The YouTube plugin is not connected");
    return this.#api;
  }
}
