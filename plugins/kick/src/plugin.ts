import { RecentIds, definedKeys } from "@ovation/core/contracts";
import type { ChatChannel, OutgoingMessage, PlatformPlugin, PluginCapabilities, PluginContext, PluginMetadata } from "@ovation/core/contracts";
import { SendQueue, Timers, jitter, splitChatText } from "@ovation/core/plugin-kit";
import type { z } from "zod";
import { apiFailure, KickApiClient } from "./api/client.js";
import type { KickTokens } from "./api/client.js";
import { getMe, getPublicKey, sendChat, subscribeEvents } from "./api/endpoints.js";
import { KICK_EVENTS } from "./api/wire.js";
import { mapWebhookEvent } from "./chat/map.js";
import type { MapOutcome } from "./chat/map.js";
import { KICK_ERROR_CODES, KickError } from "./errors.js";
import { kickPluginOptionsSchema } from "./options.js";
import type { KickPluginOptions } from "./options.js";
import { mapSocketFrame, WEBHOOK_ONLY_EVENTS } from "./pusher/socket-map.js";
import { KickChatSocket } from "./pusher/socket.js";
import type { PusherFrame } from "./pusher/socket-wire.js";
import { parseKickPublicKey } from "./webhook/signature.js";
import { KickWebhookVerifier } from "./webhook/verifier.js";
import type { KickWebhookRequest, WebhookVerdict } from "./webhook/verifier.js";

/** The plugin's version (kept equal to package.json). */
export const KICK_PLUGIN_VERSION = "0.1.0";

/** Kick's limit on one chat message, in characters. */
export const KICK_MAX_MESSAGE = 500;

/** Where the server receives Kick's webhooks (set this URL on the Kick app). */
export const KICK_WEBHOOK_PATH = "/v1/platforms/kick/webhook";

type ParsedOptions = z.output<typeof kickPluginOptionsSchema>;

/** Callbacks of the Kick plugin. */
export interface KickPluginHooks {
  /** The user token was refreshed: persist the new tokens (awaited; a restart must use them). */
  onTokensRefreshed?: (tokens: KickTokens) => void | Promise<void>;
  /** The plugin learned which Kick account the tokens belong to. */
  onChannel?: (channel: ChatChannel) => void;
}

/** Webhook requests by outcome since start (accepted, and each refusal reason). */
export type WebhookCounts = Record<string, number>;

const RELINK = "reconnect Kick under Connections";

/**
 * The Kick platform plugin: reads events from Kick's signed webhooks (official) or from Kick's chat
 * socket (unofficial, no public URL needed), and answers through the public API's chat endpoint.
 */
export class KickPlugin implements PlatformPlugin {
  readonly metadata: PluginMetadata = {
    name: "kick",
    platform: "kick",
    version: KICK_PLUGIN_VERSION,
    core: "^0.1.0",
    description: "Kick chat, follows, subscriptions and gifts (public API webhooks, or the chat socket)",
  };
  readonly capabilities: PluginCapabilities = { send: ["say", "reply"], moderation: { deleteMessage: false, timeout: false } };

  readonly #o: ParsedOptions;
  readonly #hooks: KickPluginHooks;
  readonly #verifier: KickWebhookVerifier;
  readonly #seen = new RecentIds(20_000);
  readonly #channel: ChatChannel;
  readonly #malformedKinds = new Set<string>();
  readonly #counts: WebhookCounts = {};
  #malformedCount = 0;
  #api: KickApiClient | null = null;
  #context: PluginContext | null = null;
  #socket: KickChatSocket | null = null;
  #queue: SendQueue;
  #timers = new Timers();

  /** @throws KickError (`OVATION_ERR_KICK_CONFIG`) naming each invalid setting. */
  constructor(options: KickPluginOptions, hooks: KickPluginHooks = {}) {
    const parsed = kickPluginOptionsSchema.safeParse(options);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${["settings", ...i.path.map(String)].join(".")}: ${i.message}`);
      throw new KickError(KICK_ERROR_CODES.config, `Kick plugin settings are invalid: ${problems.join("; ")}`, { details: { problems } });
    }
    this.#o = parsed.data;
    this.#hooks = hooks;
    try {
      this.#verifier = new KickWebhookVerifier({ publicKey: parsed.data.webhookPublicKey, toleranceSeconds: parsed.data.webhookToleranceSeconds });
    } catch (err) {
      throw new KickError(KICK_ERROR_CODES.config, `Kick plugin settings are invalid: settings.webhookPublicKey: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    this.#channel = { id: parsed.data.channelId, platform_id: parsed.data.broadcasterUserId ?? "", username: "", avatar_url: "" };
    this.#queue = new SendQueue({ limit: parsed.data.sendQueueLimit, gapMs: parsed.data.sendGapMs });
  }

  channels(): readonly ChatChannel[] {
    return [this.#channel];
  }

  /** How the plugin reads events. */
  get mode(): "webhook" | "pusher" {
    return this.#o.mode;
  }

  /** Messages skipped because they were malformed. */
  get malformedCount(): number {
    return this.#malformedCount;
  }

  /** Webhook requests by outcome (`accepted`, `bad_signature`, `replay`, ...). */
  get webhookCounts(): Readonly<WebhookCounts> {
    return { ...this.#counts };
  }

  async connect(context: PluginContext): Promise<void> {
    this.#context = context;
    const o = this.#o;
    if (!o.tokens) throw new KickError(KICK_ERROR_CODES.unauthorized, `No Kick tokens: ${RELINK}`);
    this.#queue = new SendQueue({ limit: o.sendQueueLimit, gapMs: o.sendGapMs });
    this.#api = new KickApiClient({
      apiUrl: o.apiUrl,
      tokenUrl: o.tokenUrl,
      clientId: o.clientId,
      clientSecret: o.clientSecret,
      tokens: { accessToken: o.tokens.accessToken ?? null, refreshToken: o.tokens.refreshToken, expiresAt: o.tokens.expiresAt ?? 0, scopes: o.tokens.scopes },
      refreshMarginMs: o.refreshMarginSeconds * 1000,
      logger: context.logger,
      ...definedKeys({ onTokensRefreshed: this.#hooks.onTokensRefreshed }),
    });
    try {
      await this.#setUp(context);
    } catch (err) {
      if (err instanceof KickError && err.code === KICK_ERROR_CODES.unauthorized) throw new KickError(err.code as typeof KICK_ERROR_CODES.unauthorized, `${err.message}; ${RELINK}`, { cause: err });
      // Kick unreachable or failing: connect anyway and retry with backoff.
      context.setStatus("degraded", `Kick is not answering yet, retrying: ${err instanceof Error ? err.message : String(err)}`);
      this.#retrySetUp(context, o.backoffMs.min);
    }
  }

  /** Learns the account, subscribes the webhook events or opens the chat socket. */
  async #setUp(context: PluginContext): Promise<void> {
    const api = this.#requireApi();
    const me = await getMe(api);
    if (!me) throw new KickError(KICK_ERROR_CODES.api, "Kick's /users answered no user for the token");
    Object.assign(this.#channel, { platform_id: me.user_id, username: me.name, avatar_url: (me.profile_picture ?? "").slice(0, 2048) });
    this.#hooks.onChannel?.({ ...this.#channel });
    if (this.#o.mode === "pusher") {
      this.#openSocket(context);
      return;
    }
    const keyProblem = await this.#checkPublicKey(context);
    if (this.#o.subscribe) {
      const answers = await subscribeEvents(api, me.user_id, KICK_EVENTS);
      const failed = answers.filter((a) => a.error);
      for (const f of failed) context.logger.warn({ event: f.name, error: f.error }, "Kick refused an event subscription");
      const detail = `webhooks: ${answers.length - failed.length} of ${KICK_EVENTS.length} events subscribed${failed.length ? ` (refused: ${failed.map((f) => f.name).join(", ")})` : ""}; Kick posts to ${KICK_WEBHOOK_PATH}`;
      context.setStatus(failed.length === 0 && !keyProblem ? "connected" : "degraded", keyProblem ? `${detail}; ${keyProblem}` : detail);
    } else {
      const detail = `webhooks: events managed on kick.com; Kick posts to ${KICK_WEBHOOK_PATH}`;
      context.setStatus(keyProblem ? "degraded" : "connected", keyProblem ? `${detail}; ${keyProblem}` : detail);
    }
    context.logger.info({ broadcaster: me.user_id, mode: this.#o.mode }, "Kick plugin connected");
  }

  /**
   * Compares the key Kick publishes (GET /public-key, app token) with the trusted one; returns the
   * problem in words when they differ. A failed lookup is logged and not a problem.
   */
  async #checkPublicKey(context: PluginContext): Promise<string | null> {
    let published: string;
    try {
      published = await getPublicKey(this.#requireApi());
    } catch (err) {
      context.logger.warn({ err: err instanceof Error ? err.message : String(err) }, "Kick public key not checked (the app token or the lookup failed)");
      return null;
    }
    const der = (pem: string): string => parseKickPublicKey(pem).export({ type: "spki", format: "der" }).toString("base64");
    try {
      if (der(published) === der(this.#o.webhookPublicKey)) return null;
    } catch {
      return "Kick published a webhook key that cannot be read; webhooks are checked against the configured key";
    }
    context.logger.warn("Kick signs webhooks with a different key than the trusted one");
    return "Kick now signs webhooks with a different key than the trusted one: set OVATION_KICK_WEBHOOK_PUBLIC_KEY to the key of GET /public/v1/public-key";
  }

  #retrySetUp(context: PluginContext, wait: number): void {
    this.#timers.later(jitter(wait), () => {
      if (this.#context !== context || context.signal.aborted) return;
      this.#setUp(context).catch((err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        if (err instanceof KickError && err.code === KICK_ERROR_CODES.unauthorized) {
          context.setStatus("failed", `${message}; ${RELINK}`);
          return;
        }
        context.setStatus("degraded", `Kick is not answering, retrying: ${message}`);
        this.#retrySetUp(context, Math.min(this.#o.backoffMs.max, wait * 2));
      });
    });
  }

  #openSocket(context: PluginContext): void {
    const unavailable = `unavailable without webhooks: ${WEBHOOK_ONLY_EVENTS.join(", ")}`;
    this.#socket = new KickChatSocket({
      url: this.#o.pusherUrl,
      chatroomId: this.#o.chatroomId as string,
      backoffMs: this.#o.backoffMs,
      logger: context.logger,
      onFrame: (frame) => this.handleSocketFrame(frame),
      onState: (connected, detail) => context.setStatus(connected ? "connected" : "degraded", `${detail} (unofficial chat socket; ${unavailable})`),
    });
    context.setStatus("connecting", `opening Kick's chat socket (unofficial; ${unavailable})`);
    this.#socket.start();
  }

  async disconnect(): Promise<void> {
    this.#queue.stop(() => new KickError(KICK_ERROR_CODES.offline, "The Kick plugin was disconnected before the answer was sent"));
    this.#socket?.stop();
    this.#socket = null;
    this.#timers.clear();
    this.#context = null;
  }

  async send(message: OutgoingMessage): Promise<void> {
    const context = this.#context;
    const replyTo = message.send_as === "reply" && message.reply_to ? message.reply_to : undefined;
    for (const part of splitChatText(message.text, KICK_MAX_MESSAGE)) {
      try {
        await this.#queue.push(
          () => this.#post(part, replyTo),
          () => new KickError(KICK_ERROR_CODES.sendQueueFull, `The Kick send queue is full (${this.#o.sendQueueLimit} waiting): answer refused`),
        );
      } catch (err) {
        context?.logger.warn({ err, text: part.slice(0, 80) }, "Kick answer not sent");
        // A token Kick refuses for good (revoked, expired refresh) shows in the status with the fix.
        if (err instanceof KickError && err.code === KICK_ERROR_CODES.unauthorized) context?.setStatus("failed", `${err.message}; ${RELINK}`);
        throw err;
      }
    }
  }

  /** POST /chat, retrying twice after a 429 (Retry-After, or doubling backoff). */
  async #post(text: string, replyTo: string | undefined): Promise<void> {
    if (this.#channel.platform_id === "") throw new KickError(KICK_ERROR_CODES.offline, "The Kick plugin does not know its channel yet: answer not sent");
    for (let attempt = 0; ; attempt++) {
      try {
        const sent = await sendChat(this.#requireApi(), this.#channel.platform_id, text, this.#o.sendAs, replyTo);
        if (!sent.is_sent) throw new KickError(KICK_ERROR_CODES.api, "Kick did not send the message (is_sent false)");
        return;
      } catch (err) {
        const failure = apiFailure(err);
        if (failure?.status !== 429 || attempt >= 2) throw err;
        const wait = failure.retryAfterMs ?? this.#o.backoffMs.min * 2 ** attempt;
        this.#context?.logger.info({ wait }, "Kick chat rate limit: answer waits");
        await this.#timers.sleep(wait);
      }
    }
  }

  /**
   * Verifies one webhook request and answers at once; the event is mapped and emitted right after
   * the answer (Kick wants a quick 200). Every refusal is logged with its reason and counted.
   */
  handleWebhook(request: KickWebhookRequest): WebhookVerdict {
    const verdict = this.#verifier.verify(request);
    const context = this.#context;
    const key = verdict.accepted ? "accepted" : verdict.reason;
    this.#counts[key] = (this.#counts[key] ?? 0) + 1;
    if (!verdict.accepted) {
      context?.logger.warn({ reason: verdict.reason, detail: verdict.detail, messageId: verdict.messageId, type: verdict.type }, `Kick webhook refused: ${verdict.reason}`);
      return verdict;
    }
    setImmediate(() => this.#dispatchWebhook(verdict));
    return verdict;
  }

  /** Handles a webhook its host verified already (signature, window, replay): emitted right after the answer. */
  acceptWebhook(verdict: Extract<WebhookVerdict, { accepted: true }>): void {
    this.#counts.accepted = (this.#counts.accepted ?? 0) + 1;
    setImmediate(() => this.#dispatchWebhook(verdict));
  }

  #dispatchWebhook(verdict: Extract<WebhookVerdict, { accepted: true }>): void {
    const context = this.#context;
    if (!context) return;
    const broadcaster = (verdict.payload as { broadcaster?: { user_id?: unknown } } | null)?.broadcaster?.user_id;
    if (this.#channel.platform_id !== "" && broadcaster !== undefined && String(broadcaster) !== this.#channel.platform_id) {
      context.logger.warn({ type: verdict.type, broadcaster: String(broadcaster).slice(0, 32) }, "Kick webhook for another broadcaster skipped");
      return;
    }
    this.#emit(mapWebhookEvent({ type: verdict.type, version: verdict.version, messageId: verdict.messageId, timestamp: verdict.timestamp, payload: verdict.payload }, this.#channel));
  }

  /** Emits what one chat-socket frame becomes; public for the bench and tests. */
  handleSocketFrame(frame: PusherFrame): void {
    this.#emit(mapSocketFrame(frame, this.#channel));
  }

  #emit(outcome: MapOutcome): void {
    const context = this.#context;
    if (!context) return;
    switch (outcome.kind) {
      case "chat":
        if (this.#seen.add(`chat-${outcome.event.id}`)) context.emitChat(outcome.event);
        return;
      case "moderation":
        context.emitModeration(outcome.event);
        return;
      case "alert":
        if (this.#seen.add(outcome.notification.notification.id)) context.emitNotification(outcome.notification);
        return;
      case "ignored":
        context.logger.debug({ type: outcome.type, reason: outcome.reason }, "Kick event ignored");
        return;
      case "malformed":
        this.#malformedCount++;
        if (!this.#malformedKinds.has(outcome.type)) {
          this.#malformedKinds.add(outcome.type);
          context.logger.warn({ type: outcome.type, reason: outcome.reason }, "Kick event skipped (logged once per kind)");
        }
        return;
    }
  }

  #requireApi(): KickApiClient {
    if (!this.#api) throw new KickError(KICK_ERROR_CODES.offline, "The Kick plugin is not connected");
    return this.#api;
  }
}
