import { RecentIds } from "@ovation/core/contracts";
import type { Logger } from "pino";
import { WebSocket } from "ws";
import { eventSubMessageSchema, notificationPayloadSchema, revocationPayloadSchema, sessionPayloadSchema } from "./wire.js";
import type { EventSubNotification, EventSubRevocation } from "./wire.js";

/** Options of an {@link EventSubSocket}. */
export interface EventSubSocketOptions {
  /** Default `wss://eventsub.wss.twitch.tv/ws`. */
  url: string;
  logger: Logger;
  /** A fresh session (first connect, or after a lost connection): create the subscriptions for it. */
  onSession(sessionId: string): Promise<void>;
  onNotification(notification: EventSubNotification): void;
  onRevocation(subscription: EventSubRevocation): void;
  /** Connection state changes, for the plugin's health. */
  onState?(state: "connected" | "reconnecting", detail: string | null): void;
  /** Extra wait beyond `keepalive_timeout_seconds` before the connection counts as lost (default 1000 ms). */
  keepaliveGraceMs?: number;
  /** First and longest delay between reconnect attempts (default 500 ms and 30 s). */
  reconnectDelayMs?: { min: number; max: number };
}

/**
 * An EventSub WebSocket session. Handles `session_welcome`, `session_keepalive`, `notification`,
 * `session_reconnect` (opens the new URL and closes the old connection only once the new one is
 * welcomed, so nothing is lost), `revocation`, and a keepalive timeout (a fresh session, with the
 * subscriptions created again). Notification message ids are de-duplicated across connections.
 */
export class EventSubSocket {
  readonly #options: EventSubSocketOptions;
  readonly #seen = new RecentIds(10_000);
  readonly #retired = new WeakSet<WebSocket>();
  #current: WebSocket | null = null;
  #pending: WebSocket | null = null;
  #timer: NodeJS.Timeout | null = null;
  #retry: NodeJS.Timeout | null = null;
  #keepaliveMs = 10_000;
  #attempts = 0;
  #stopped = false;
  #sessionId: string | null = null;
  #firstSession: { resolve: () => void; reject: (err: Error) => void } | null = null;

  constructor(options: EventSubSocketOptions) {
    this.#options = options;
  }

  /** The current session id, once welcomed. */
  get sessionId(): string | null {
    return this.#sessionId;
  }

  /** Connects; resolves after the first welcome and its subscriptions, rejects if that first attempt fails. */
  start(): Promise<void> {
    this.#stopped = false;
    return new Promise<void>((resolve, reject) => {
      this.#firstSession = { resolve, reject };
      this.#current = this.#open(this.#options.url, "fresh");
    });
  }

  /** Closes every connection and timer. */
  stop(): void {
    this.#stopped = true;
    this.#clearTimers();
    for (const ws of [this.#current, this.#pending]) {
      if (!ws) continue;
      this.#retired.add(ws);
      ws.close(1000);
    }
    this.#current = null;
    this.#pending = null;
  }

  #open(url: string, mode: "fresh" | "reconnect"): WebSocket {
    const ws = new WebSocket(url);
    ws.on("message", (data) => this.#onMessage(ws, mode, data.toString()));
    ws.on("close", (code) => this.#onClose(ws, code));
    ws.on("error", (err) => this.#options.logger.warn({ err: err.message }, "EventSub socket error"));
    return ws;
  }

  #onMessage(ws: WebSocket, mode: "fresh" | "reconnect", text: string): void {
    if (this.#stopped || this.#retired.has(ws)) return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.#options.logger.warn("EventSub sent a message that is not JSON");
      return;
    }
    const message = eventSubMessageSchema.safeParse(json);
    if (!message.success) {
      this.#options.logger.warn({ issues: message.error.issues.length }, "EventSub message without metadata/payload");
      return;
    }
    if (ws === this.#current) this.#arm();
    const { metadata, payload } = message.data;
    switch (metadata.message_type) {
      case "session_welcome": {
        const session = sessionPayloadSchema.safeParse(payload);
        if (!session.success) return;
        this.#keepaliveMs = (session.data.session.keepalive_timeout_seconds ?? 10) * 1000;
        this.#welcome(ws, mode, session.data.session.id);
        return;
      }
      case "session_keepalive":
        return;
      case "notification": {
        const body = notificationPayloadSchema.safeParse(payload);
        if (!body.success) {
          this.#options.logger.warn("EventSub notification without subscription/event");
          return;
        }
        // Twitch delivers at least once, and both connections may carry it during a reconnect.
        if (!this.#seen.add(metadata.message_id)) return;
        this.#options.onNotification({
          messageId: metadata.message_id,
          timestamp: metadata.message_timestamp,
          subscription: body.data.subscription,
          event: body.data.event,
        });
        return;
      }
      case "session_reconnect": {
        const session = sessionPayloadSchema.safeParse(payload);
        const url = session.success ? session.data.session.reconnect_url : null;
        if (!url || this.#pending) return;
        this.#options.logger.info("EventSub asked to reconnect; opening the new connection before closing the old");
        this.#options.onState?.("reconnecting", "EventSub session moving to a new server");
        this.#pending = this.#open(url, "reconnect");
        return;
      }
      case "revocation": {
        const body = revocationPayloadSchema.safeParse(payload);
        if (body.success) this.#options.onRevocation(body.data.subscription);
        return;
      }
      default:
        this.#options.logger.debug({ type: metadata.message_type }, "EventSub message type ignored");
    }
  }

  #welcome(ws: WebSocket, mode: "fresh" | "reconnect", sessionId: string): void {
    this.#attempts = 0;
    if (mode === "reconnect" && ws === this.#pending) {
      const old = this.#current;
      this.#current = ws;
      this.#pending = null;
      if (old) {
        this.#retired.add(old);
        old.close(1000);
      }
      this.#sessionId = sessionId;
      this.#arm();
      this.#options.onState?.("connected", null);
      return;
    }
    if (ws !== this.#current) return;
    this.#sessionId = sessionId;
    this.#arm();
    const first = this.#firstSession;
    this.#firstSession = null;
    this.#options
      .onSession(sessionId)
      .then(() => {
        this.#options.onState?.("connected", null);
        first?.resolve();
      })
      .catch((err: unknown) => {
        const detail = err instanceof Error ? err.message : String(err);
        this.#options.logger.warn({ detail }, "creating EventSub subscriptions failed");
        this.#options.onState?.("connected", `some EventSub subscriptions failed: ${detail}`);
        first?.resolve();
      });
  }

  #onClose(ws: WebSocket, code: number): void {
    if (this.#stopped || this.#retired.has(ws)) return;
    if (ws === this.#pending) {
      this.#pending = null;
      this.#options.logger.warn({ code }, "EventSub reconnect URL closed before its welcome; keeping the old connection");
      return;
    }
    if (ws !== this.#current) return;
    this.#current = null;
    this.#options.logger.warn({ code }, "EventSub connection closed");
    if (this.#firstSession) {
      this.#firstSession.reject(new Error(`EventSub closed before the session started (code ${code})`));
      this.#firstSession = null;
    }
    this.#freshLater();
  }

  #arm(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      const ws = this.#current;
      this.#options.logger.warn("EventSub keepalive missed; starting a new session");
      if (ws) {
        this.#retired.add(ws);
        ws.terminate();
      }
      this.#current = null;
      this.#freshLater();
    }, this.#keepaliveMs + (this.#options.keepaliveGraceMs ?? 1000));
  }

  #freshLater(): void {
    if (this.#stopped) return;
    this.#clearTimers();
    const { min, max } = this.#options.reconnectDelayMs ?? { min: 500, max: 30_000 };
    const delay = Math.min(max, min * 2 ** this.#attempts);
    this.#attempts++;
    this.#options.onState?.("reconnecting", "EventSub connection lost");
    this.#retry = setTimeout(() => {
      this.#retry = null;
      if (this.#stopped) return;
      this.#current = this.#open(this.#options.url, "fresh");
    }, delay);
  }

  #clearTimers(): void {
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#retry) clearTimeout(this.#retry);
    this.#timer = null;
    this.#retry = null;
  }
}
