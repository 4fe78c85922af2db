import { randomUUID } from "node:crypto";
import { RecentIds } from "@ovation/core/contracts";
import type { ChatChannel, OutgoingMessage, PlatformDeclaration, PlatformPlugin, PluginCapabilities, PluginContext, PluginMetadata } from "@ovation/core/contracts";
import { Backoff, Timers } from "@ovation/core/plugin-kit";
import { UserOfflineError } from "tiktok-live-connector";
import type { TikTokLiveConnection } from "tiktok-live-connector";
import { tiktokChatEvent } from "./chat/map.js";
import { connectionEvents, createConnection } from "./connection.js";
import { TIKTOK_ERROR_CODES, TikTokError } from "./errors.js";
import { mapTikTokMessage } from "./events.js";
import { LikeAggregator } from "./likes.js";
import { tiktokNotification } from "./notification.js";
import { tiktokPluginOptionsSchema } from "./options.js";
import { TIKTOK_PLATFORM } from "./platform.js";
import type { TikTokParsedOptions, TikTokPluginOptions } from "./options.js";
import { roomInfoSchema } from "./wire.js";

/** The plugin's version (kept equal to package.json). */
export const TIKTOK_PLUGIN_VERSION = "0.1.0";

/** What the status says about answers: TikTok offers no supported way to post as the streamer. */
export const READ_ONLY_NOTE = "read-only: command answers are shown in the .chat room, not posted to TikTok";

/**
 * The TikTok LIVE platform plugin: reads the streamer's LIVE through tiktok-live-connector
 * (comments, gifts, follows, shares, likes, subscriptions, stream end), maps each decoded message
 * at the edge, dedupes by TikTok's msgId, emits one alert per gift streak, adds likes up over a
 * window, and reconnects with backoff and jitter. It cannot post: answers go to the `.chat` room.
 */
export class TikTokPlugin implements PlatformPlugin {
  readonly metadata: PluginMetadata = {
    name: "tiktok",
    platform: "tiktok",
    version: TIKTOK_PLUGIN_VERSION,
    core: "^0.1.0",
    description: "TikTok LIVE comments, gifts, follows, subscriptions, shares and likes (read-only)",
  };
  /** `say` is declared so commands run; {@link send} shows the answer in the `.chat` room instead of posting it. */
  readonly capabilities: PluginCapabilities = { send: ["say"], moderation: { deleteMessage: false, timeout: false } };
  /** TikTok's display name and the catalog alert types it emits (donation, follow, subscribe). */
  readonly platform: PlatformDeclaration = TIKTOK_PLATFORM;

  readonly #options: TikTokParsedOptions;
  readonly #channel: ChatChannel;
  readonly #seen = new RecentIds(20_000);
  readonly #likes = new LikeAggregator();
  readonly #malformedKinds = new Set<string>();
  #malformedCount = 0;
  #context: PluginContext | null = null;
  #connection: TikTokLiveConnection | null = null;
  #roomId: string | null = null;
  readonly #timers = new Timers();
  readonly #backoff: Backoff;

  /** @throws TikTokError (`OVATION_ERR_TIKTOK_CONFIG`) naming each invalid setting. */
  constructor(options: TikTokPluginOptions) {
    const parsed = tiktokPluginOptionsSchema.safeParse(options);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${["settings", ...i.path.map(String)].join(".")}: ${i.message}`);
      throw new TikTokError(TIKTOK_ERROR_CODES.config, `TikTok plugin settings are invalid: ${problems.join("; ")}`, { details: { problems } });
    }
    this.#options = parsed.data;
    this.#backoff = new Backoff(parsed.data.backoffMs);
    this.#channel = { id: parsed.data.channelId, platform_id: "", username: parsed.data.uniqueId, avatar_url: "" };
  }

  channels(): readonly ChatChannel[] {
    return [this.#channel];
  }

  /** Messages and frames skipped because they were malformed. */
  get malformedCount(): number {
    return this.#malformedCount;
  }

  /** The LIVE room followed now, or null when not connected. */
  get roomId(): string | null {
    return this.#roomId;
  }

  async connect(context: PluginContext): Promise<void> {
    this.#context = context;
    context.setStatus("connecting", `looking for @${this.#options.uniqueId}'s LIVE; ${READ_ONLY_NOTE}`);
    void this.#open(context);
  }

  async disconnect(): Promise<void> {
    this.#context = null;
    this.#timers.clear();
    this.#likes.flush();
    const connection = this.#connection;
    this.#connection = null;
    if (connection) {
      connectionEvents(connection).removeAllListeners();
      await connection.disconnect().catch(() => undefined);
    }
  }

  /**
   * TikTok offers no supported way to post as the streamer, so an answer is not sent: it is shown
   * in the `.chat` room as a message of the channel, prefixed so it never runs a command itself.
   */
  async send(message: OutgoingMessage): Promise<void> {
    const context = this.#context;
    if (!context) throw new TikTokError(TIKTOK_ERROR_CODES.disconnected, "The TikTok plugin is disconnected: the answer could not be shown in .chat");
    const id = `tiktok-answer-${randomUUID()}`;
    const text = `[not posted to TikTok] ${message.text}`;
    const user = { platform_id: this.#channel.platform_id || this.#options.uniqueId, username: this.#options.uniqueId, avatar_url: this.#channel.avatar_url, color: null, badges: [{ type: "broadcaster", text: "Broadcaster", id: "broadcaster", count: null }] };
    const result = context.emitChat(tiktokChatEvent(id, Date.now(), this.#channel, user, text, [{ type: "text", text }], { answer: true, posted: false }));
    if (!result.accepted) context.logger.warn({ reason: result.reason }, "TikTok answer not shown in .chat");
  }

  /**
   * Emits what one decoded TikTok message becomes (`method` is its protobuf type name); public for
   * the bench and tests. Never throws.
   */
  handleDecoded(method: string, data: unknown): void {
    const context = this.#context;
    if (!context) return;
    // Messages of the sign server's first batch come before connect() resolves; the room info is known by then.
    if (this.#channel.platform_id === "" && this.#connection?.roomInfo) this.#learnOwner(this.#connection.roomInfo);
    const outcome = mapTikTokMessage(method, data, this.#channel);
    switch (outcome.kind) {
      case "chat":
        if (this.#seen.add(outcome.id)) context.emitChat(outcome.event);
        return;
      case "notification":
        if (this.#seen.add(outcome.id)) context.emitNotification(outcome.notification);
        return;
      case "likes":
        if (!this.#seen.add(outcome.id)) return;
        if (this.#likes.add(outcome.id, outcome.userId, outcome.name, outcome.count, outcome.total)) {
          this.#timers.later(this.#options.likeWindowSeconds * 1000, () => this.#flushLikes());
        }
        return;
      case "moderation":
        if (this.#seen.add(outcome.id)) for (const event of outcome.events) context.emitModeration(event);
        return;
      case "ended":
        if (this.#seen.add(outcome.id)) this.#offline(context, "TikTok ended the LIVE");
        return;
      case "streaking":
      case "ignored":
        return;
      case "malformed":
        this.#malformed(context, outcome.method, outcome.reason);
        return;
    }
  }

  /** Announces the likes of the closed window (one `tiktok.likes` notification). */
  #flushLikes(): void {
    const context = this.#context;
    const w = this.#likes.flush();
    if (!context || !w) return;
    const data = { count: w.count, users: w.users, top_name: w.top.name, top_count: w.top.count, total: w.total, window_seconds: this.#options.likeWindowSeconds };
    context.emitNotification(tiktokNotification("tiktok.likes", `tiktok-likes-${w.id}`, w.startedAt, this.#channel, data, null));
  }

  #malformed(context: PluginContext, kind: string, reason: string): void {
    this.#malformedCount++;
    if (this.#malformedKinds.has(kind)) return;
    this.#malformedKinds.add(kind);
    context.logger.warn({ kind, reason }, "TikTok message skipped (logged once per kind)");
  }

  async #open(context: PluginContext): Promise<void> {
    if (this.#context !== context) return;
    const connection = createConnection(this.#options);
    this.#connection = connection;
    const events = connectionEvents(connection);
    events.on("decodedData", (method: string, decoded: { data?: unknown }) => this.handleDecoded(method, decoded?.data));
    events.on("error", (e: { info?: string; exception?: unknown }) => {
      const info = typeof e?.info === "string" ? e.info : "error";
      if (/decod/i.test(info)) this.#malformed(context, "frame", e.exception instanceof Error ? e.exception.message.slice(0, 200) : info);
    });
    events.on("disconnected", () => {
      if (this.#connection !== connection || this.#context !== context) return;
      this.#connection = null;
      if (this.#roomId === null) this.#timers.later(this.#options.offlinePollSeconds * 1000, () => void this.#open(context));
      else this.#retry(context, "the TikTok WebSocket closed");
    });
    try {
      const state = await connection.connect();
      // The first frames can arrive with the WebSocket's opening, before this line runs: a LIVE that
      // ended in them has already disconnected the library (its "disconnected" handler takes over).
      if (this.#connection !== connection || !connection.isConnected || state.roomId === "") return;
      this.#backoff.reset();
      this.#online(context, state.roomId, state.roomInfo);
    } catch (err) {
      if (this.#connection !== connection || this.#context !== context) return;
      this.#connection = null;
      events.removeAllListeners();
      if (err instanceof UserOfflineError) {
        this.#offline(context, "not live");
        this.#timers.later(this.#options.offlinePollSeconds * 1000, () => void this.#open(context));
        return;
      }
      // The library's messages can span lines (a sign server banner): one line for the status.
      this.#retry(context, (err instanceof Error ? err.message : String(err)).replace(/[\s+-]*\n[\s+-]*/g, " ").slice(0, 300));
    }
  }

  #online(context: PluginContext, roomId: string, roomInfo: unknown): void {
    this.#roomId = roomId;
    const info = roomInfoSchema.safeParse(roomInfo);
    const title = info.success ? (info.data.data.title ?? "") : "";
    const since = info.success && info.data.data.create_time ? info.data.data.create_time * 1000 : Date.now();
    this.#learnOwner(roomInfo);
    const id = `tiktok-online-${roomId}`;
    if (this.#seen.add(id)) context.emitNotification(tiktokNotification("stream.online", id, since, this.#channel, { room_id: roomId, title }, roomInfo ?? null));
    context.logger.info({ room: roomId }, "TikTok LIVE connected");
    context.setStatus("connected", `live in room ${roomId}; ${READ_ONLY_NOTE}`);
  }

  /** The streamer's TikTok user id and picture from the room info: alerts and chat name the channel by them. */
  #learnOwner(roomInfo: unknown): void {
    const info = roomInfoSchema.safeParse(roomInfo);
    const owner = info.success ? info.data.data.owner : undefined;
    if (owner?.id_str) this.#channel.platform_id = owner.id_str;
    const avatar = owner?.avatar_thumb?.url_list?.[0];
    if (avatar) this.#channel.avatar_url = avatar.slice(0, 2048);
  }

  #offline(context: PluginContext, why: string): void {
    const roomId = this.#roomId;
    this.#roomId = null;
    this.#flushLikes();
    if (roomId !== null) {
      const id = `tiktok-offline-${roomId}`;
      if (this.#seen.add(id)) context.emitNotification(tiktokNotification("stream.offline", id, Date.now(), this.#channel, { room_id: roomId }, null));
    }
    context.setStatus("connected", `@${this.#options.uniqueId} is not live (${why}); checking every ${this.#options.offlinePollSeconds} s; ${READ_ONLY_NOTE}`);
  }

  /** Reconnects after a failure, with exponential backoff and +-20% jitter. */
  #retry(context: PluginContext, why: string): void {
    const wait = this.#backoff.next();
    context.logger.warn({ why, retryInMs: wait }, "TikTok connection failed; retrying");
    context.setStatus("degraded", `${why}; retrying in ${Math.ceil(wait / 1000)} s; ${READ_ONLY_NOTE}`);
    this.#timers.later(wait, () => void this.#open(context));
  }
}
