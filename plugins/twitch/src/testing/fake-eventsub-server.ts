import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import type { WebSocket } from "ws";
import { eventSubFixture } from "./fixtures.js";

interface Session {
  ws: WebSocket;
  id: string;
  keepalive: NodeJS.Timeout | null;
}

/**
 * An EventSub WebSocket server on loopback: `session_welcome` on connect, `session_keepalive` on a
 * timer, notifications from the fixtures, `session_reconnect` to a new URL on this server, revocations,
 * and `silence()` to stop keepalives so the client's keepalive timeout fires.
 */
export class FakeEventSubServer {
  readonly #wss: WebSocketServer;
  readonly sessions: Session[] = [];
  keepaliveSeconds = 10;
  keepaliveEveryMs = 200;
  connectionCount = 0;
  closedByClient = 0;
  #nextId = 1;

  private constructor(wss: WebSocketServer) {
    this.#wss = wss;
    wss.on("connection", (ws, request) => this.#accept(ws, request.url ?? "/"));
  }

  static async start(): Promise<FakeEventSubServer> {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await once(wss, "listening");
    return new FakeEventSubServer(wss);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.#wss.address() as AddressInfo).port}/ws`;
  }

  /** The newest open session (the one Twitch would deliver to). */
  get current(): Session {
    const open = this.sessions.filter((s) => s.ws.readyState === s.ws.OPEN);
    const last = open[open.length - 1];
    if (!last) throw new Error("no open EventSub session");
    return last;
  }

  /** Sends the notification fixture `name` (optionally with another message id) on `session`. */
  notify(name: string, options: { messageId?: string; session?: Session } = {}): string {
    const message = eventSubFixture<{ metadata: { message_id: string } }>(name);
    if (options.messageId) message.metadata.message_id = options.messageId;
    (options.session ?? this.current).ws.send(JSON.stringify(message));
    return message.metadata.message_id;
  }

  /** Sends a raw JSON message on the current session. */
  sendRaw(payload: unknown, session: Session = this.current): void {
    session.ws.send(typeof payload === "string" ? payload : JSON.stringify(payload));
  }

  /** Sends `session_reconnect` pointing at a new URL of this server; returns the old session. */
  reconnect(): Session {
    const old = this.current;
    const message = eventSubFixture<{ payload: { session: { id: string; reconnect_url: string } } }>("session_reconnect");
    message.payload.session.id = old.id;
    message.payload.session.reconnect_url = `${this.url}?reconnect=${old.id}`;
    old.ws.send(JSON.stringify(message));
    return old;
  }

  /** Sends the revocation fixture on the current session. */
  revoke(): void {
    this.current.ws.send(JSON.stringify(eventSubFixture("revocation")));
  }

  /** Stops the keepalives of the current session (the connection stays open, silent). */
  silence(): void {
    const session = this.current;
    if (session.keepalive) clearInterval(session.keepalive);
    session.keepalive = null;
  }

  async close(): Promise<void> {
    for (const s of this.sessions) {
      if (s.keepalive) clearInterval(s.keepalive);
      s.ws.terminate();
    }
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  #accept(ws: WebSocket, path: string): void {
    this.connectionCount++;
    const reconnectOf = new URL(path, "http://x").searchParams.get("reconnect");
    const id = reconnectOf ?? `session-${this.#nextId++}`;
    const session: Session = { ws, id, keepalive: null };
    this.sessions.push(session);
    ws.on("close", (code) => {
      if (session.keepalive) clearInterval(session.keepalive);
      if (code === 1000) this.closedByClient++;
    });
    const welcome = eventSubFixture<{ payload: { session: { id: string; keepalive_timeout_seconds: number } } }>("session_welcome");
    welcome.payload.session.id = id;
    welcome.payload.session.keepalive_timeout_seconds = this.keepaliveSeconds;
    ws.send(JSON.stringify(welcome));
    session.keepalive = setInterval(() => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(eventSubFixture("session_keepalive")));
    }, this.keepaliveEveryMs);
  }
}
