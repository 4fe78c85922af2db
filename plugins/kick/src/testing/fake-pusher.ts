import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import type { WebSocket } from "ws";

/**
 * A fake Pusher (protocol 7) server on 127.0.0.1 speaking what Kick's chat socket speaks:
 * `pusher:connection_established`, `pusher:subscribe` -> `pusher_internal:subscription_succeeded`,
 * `pusher:ping`/`pong`, and channel events whose `data` is a JSON string.
 */
export class FakePusher {
  /** Channels subscribed, in order, across connections. */
  readonly subscribed: string[] = [];
  connections = 0;
  readonly #wss: WebSocketServer;
  readonly #clients = new Map<WebSocket, Set<string>>();

  private constructor(wss: WebSocketServer) {
    this.#wss = wss;
    wss.on("connection", (ws) => {
      this.connections++;
      this.#clients.set(ws, new Set());
      ws.on("close", () => this.#clients.delete(ws));
      ws.on("message", (data) => this.#message(ws, String(data)));
      ws.send(JSON.stringify({ event: "pusher:connection_established", data: JSON.stringify({ socket_id: `${this.connections}.${Date.now()}`, activity_timeout: 120 }) }));
    });
  }

  static async start(): Promise<FakePusher> {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
    return new FakePusher(wss);
  }

  /** The app URL the plugin connects to (like `wss://ws-us2.pusher.com/app/<key>`). */
  get url(): string {
    return `ws://127.0.0.1:${(this.#wss.address() as AddressInfo).port}/app/fake-kick-key`;
  }

  /** Sends a frame to every client subscribed to its channel; returns how many got it. */
  publish(frame: { event: string; channel: string; data: string }): number {
    let n = 0;
    for (const [ws, channels] of this.#clients) {
      if (channels.has(frame.channel)) {
        ws.send(JSON.stringify(frame));
        n++;
      }
    }
    return n;
  }

  /** Sends raw text to every client (malformed-input tests). */
  sendRaw(text: string): void {
    for (const ws of this.#clients.keys()) ws.send(text);
  }

  /** Drops every connection (the client must reconnect and subscribe again). */
  dropAll(): void {
    for (const ws of this.#clients.keys()) ws.terminate();
  }

  async close(): Promise<void> {
    for (const ws of this.#clients.keys()) ws.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  #message(ws: WebSocket, text: string): void {
    let frame: { event?: unknown; data?: { channel?: unknown } };
    try {
      frame = JSON.parse(text) as typeof frame;
    } catch {
      ws.send(JSON.stringify({ event: "pusher:error", data: { code: 4200, message: "bad JSON" } }));
      return;
    }
    if (frame.event === "pusher:ping") {
      ws.send(JSON.stringify({ event: "pusher:pong", data: {} }));
      return;
    }
    if (frame.event === "pusher:subscribe" && typeof frame.data?.channel === "string") {
      const channel = frame.data.channel;
      this.#clients.get(ws)?.add(channel);
      this.subscribed.push(channel);
      ws.send(JSON.stringify({ event: "pusher_internal:subscription_succeeded", channel, data: "{}" }));
    }
  }
}
