import type { PluginContext } from "@ovation/core/contracts";
import { Backoff } from "@ovation/core/plugin-kit";
import WebSocket from "ws";
import { pusherFrameSchema } from "./socket-wire.js";
import type { PusherFrame } from "./socket-wire.js";

/** Settings of a {@link KickChatSocket}. */
export interface KickChatSocketOptions {
  /** `wss://ws-us2.pusher.com/app/<key>` (query parameters are added). */
  url: string;
  /** The chatroom id of the channel (not the user id; see the README). */
  chatroomId: string;
  backoffMs: { min: number; max: number };
  logger: PluginContext["logger"];
  /** Every channel event of the chatroom. */
  onFrame: (frame: PusherFrame) => void;
  /** Subscribed, or lost with the reason (a reconnect follows). */
  onState: (connected: boolean, detail: string) => void;
}

/**
 * A Pusher protocol 7 client of Kick's chat socket (unofficial): subscribes to
 * `chatrooms.<id>.v2`, answers `pusher:ping`, pings when the line is quiet for the server's
 * activity timeout, and reconnects with doubling backoff and jitter.
 */
export class KickChatSocket {
  readonly #o: KickChatSocketOptions;
  #ws: WebSocket | null = null;
  #stopped = false;
  readonly #backoff: Backoff;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #idle: ReturnType<typeof setTimeout> | null = null;
  #activityMs = 120_000;

  constructor(options: KickChatSocketOptions) {
    this.#o = options;
    this.#backoff = new Backoff(options.backoffMs);
  }

  /** The Pusher channel name of the chatroom. */
  get channel(): string {
    return `chatrooms.${this.#o.chatroomId}.v2`;
  }

  start(): void {
    this.#stopped = false;
    this.#open();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#idle) clearTimeout(this.#idle);
    this.#ws?.terminate();
    this.#ws = null;
  }

  #open(): void {
    const url = new URL(this.#o.url);
    url.searchParams.set("protocol", "7");
    url.searchParams.set("client", "js");
    url.searchParams.set("version", "8.4.0");
    url.searchParams.set("flash", "false");
    const ws = new WebSocket(url, { handshakeTimeout: 15_000 });
    this.#ws = ws;
    ws.on("message", (data) => {
      this.#quiet(ws);
      this.#message(ws, String(data));
    });
    ws.on("error", (err) => this.#o.logger.warn({ err: err.message }, "Kick chat socket error"));
    ws.on("close", (code) => {
      if (this.#ws !== ws) return;
      this.#ws = null;
      if (this.#idle) clearTimeout(this.#idle);
      if (this.#stopped) return;
      const wait = this.#backoff.next();
      this.#o.onState(false, `Kick chat socket closed (${code}); reconnecting in ${(wait / 1000).toFixed(1)} s`);
      this.#timer = setTimeout(() => this.#open(), wait);
    });
  }

  /** After the server's activity timeout without a frame, ping; without an answer 30 s later, reconnect. */
  #quiet(ws: WebSocket): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (ws.readyState !== WebSocket.OPEN) return;
      ws.send(JSON.stringify({ event: "pusher:ping", data: {} }));
      this.#idle = setTimeout(() => ws.terminate(), 30_000);
    }, this.#activityMs);
  }

  #message(ws: WebSocket, text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      this.#o.onFrame({ event: "unparsable", data: text.slice(0, 200) });
      return;
    }
    const parsed = pusherFrameSchema.safeParse(raw);
    if (!parsed.success) {
      this.#o.onFrame({ event: "unparsable", data: text.slice(0, 200) });
      return;
    }
    const frame = parsed.data;
    switch (frame.event) {
      case "pusher:connection_established": {
        let data: unknown = frame.data;
        try {
          if (typeof data === "string") data = JSON.parse(data);
        } catch {
          data = null;
        }
        const timeout = Number((data as { activity_timeout?: unknown } | null)?.activity_timeout);
        if (Number.isFinite(timeout) && timeout > 0) this.#activityMs = timeout * 1000;
        ws.send(JSON.stringify({ event: "pusher:subscribe", data: { auth: "", channel: this.channel } }));
        return;
      }
      case "pusher_internal:subscription_succeeded":
        this.#backoff.reset();
        this.#o.onState(true, `reading chatroom ${this.#o.chatroomId} over Kick's chat socket`);
        return;
      case "pusher:ping":
        ws.send(JSON.stringify({ event: "pusher:pong", data: {} }));
        return;
      case "pusher:pong":
        return;
      case "pusher:error":
        this.#o.logger.warn({ data: frame.data }, "Kick chat socket error frame");
        return;
      default:
        if (frame.channel === this.channel) this.#o.onFrame(frame);
    }
  }
}
