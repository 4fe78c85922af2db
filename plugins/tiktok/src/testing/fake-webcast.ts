import { createServer as createHttpServer } from "node:http";
import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import type { WebSocket } from "ws";
import { encodeFetchResult, encodePushFrame } from "./encode.js";
import { loopbackTls, tiktokFixtures } from "./fixtures.js";
import type { TikTokFixtureMessage } from "./fixtures.js";

/** A request the fake received (method, path and query; headers by lower-case name). */
export interface FakeRequest {
  server: "web" | "sign";
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
}

/**
 * A loopback fake of what tiktok-live-connector contacts for a LIVE:
 * - `webUrl` (HTTPS, TikTok's website and webcast API): the LIVE page `/@<id>/live` with its
 *   SIGI_STATE room id, and `webcast/room/info/` with the room status (2 live, 4 ended);
 * - `signServerUrl` (HTTP, the signing service): `GET /webcast/rooms/<room>/connect` answers a
 *   protobuf ProtoMessageFetchResult whose `pushServer` is this fake's WebSocket, with the
 *   `x-set-tt-cookie` header the library requires; `signStatus` makes it refuse (429, 402...);
 * - the WebSocket push server: {@link push} sends real WebcastPushFrame frames (gzip-free
 *   protobuf) wrapping ProtoMessageFetchResult batches encoded with tiktok-live-proto.
 * Its TLS certificate is {@link FakeWebcast.caCertificate} (pass it as the plugin's `caCertificate`).
 */
export class FakeWebcast {
  readonly requests: FakeRequest[] = [];
  /** The room's status as room info reports it: 2 live, 4 ended. */
  roomStatus = 2;
  /** When set, the sign server answers this status with a JSON error body. */
  signStatus: number | null = null;
  readonly caCertificate = loopbackTls.cert;
  readonly #web: HttpsServer;
  readonly #sign: HttpServer;
  readonly #wss: WebSocketServer;
  readonly #sockets = new Set<WebSocket>();
  #cursor = 0;
  #waiters: (() => void)[] = [];

  constructor() {
    this.#web = createHttpsServer({ cert: loopbackTls.cert, key: loopbackTls.key }, (req, res) => this.#onWeb(req, res));
    this.#sign = createHttpServer((req, res) => this.#onSign(req, res));
    this.#wss = new WebSocketServer({ server: this.#sign, path: "/webcast/im/push/v2/" });
    this.#wss.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  /** Starts both servers on 127.0.0.1 (random ports). */
  async start(): Promise<this> {
    await Promise.all([this.#web, this.#sign].map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
    return this;
  }

  /** TikTok website and webcast API origin (https, loopback). */
  get webUrl(): string {
    return `https://127.0.0.1:${(this.#web.address() as AddressInfo).port}`;
  }

  /** The signing service origin (http, loopback). */
  get signServerUrl(): string {
    return `http://127.0.0.1:${(this.#sign.address() as AddressInfo).port}`;
  }

  /** The `OVATION_TIKTOK_*` variables that point a real server's TikTok plugin at this fake. */
  serverEnv(): Record<string, string> {
    return {
      OVATION_TIKTOK_UNIQUE_ID: tiktokFixtures.room.uniqueId,
      OVATION_TIKTOK_SIGN_SERVER_URL: this.signServerUrl,
      OVATION_TIKTOK_WEB_URL: this.webUrl,
      OVATION_TIKTOK_WEBCAST_URL: this.webUrl,
      OVATION_TIKTOK_CA_CERTIFICATE: this.caCertificate,
      OVATION_TIKTOK_LIKE_WINDOW_SECONDS: "0.5",
    };
  }

  /** Open WebSocket connections. */
  get connections(): number {
    return this.#sockets.size;
  }

  /** Resolves once at least `count` WebSockets are open. */
  async waitForConnections(count = 1): Promise<void> {
    while (this.#sockets.size < count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Pushes one batch of messages to every open WebSocket, encoded as TikTok does. */
  push(messages: readonly TikTokFixtureMessage[]): void {
    const batch = encodeFetchResult(messages, { cursor: `cursor-${++this.#cursor}`, internalExt: `ext-${this.#cursor}` });
    this.pushRaw(encodePushFrame(batch, String(this.#cursor)));
  }

  /** Sends raw bytes as one frame (for malformed input). */
  pushRaw(bytes: Uint8Array): void {
    for (const socket of this.#sockets) socket.send(bytes);
  }

  /** Closes every WebSocket (as a network drop would). */
  dropConnections(): void {
    for (const socket of this.#sockets) socket.terminate();
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    await Promise.all(
      [this.#web, this.#sign].map((s) => {
        s.closeAllConnections();
        return new Promise<void>((resolve) => s.close(() => resolve()));
      }),
    );
  }

  #record(server: FakeRequest["server"], req: IncomingMessage): URL {
    const url = new URL(req.url ?? "/", "http://fake");
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
    this.requests.push({ server, method: req.method ?? "GET", path: url.pathname, query: Object.fromEntries(url.searchParams), headers });
    return url;
  }

  #onWeb(req: IncomingMessage, res: ServerResponse): void {
    const url = this.#record("web", req);
    const room = tiktokFixtures.room;
    if (url.pathname === `/@${room.uniqueId}/live`) {
      const state = { LiveRoom: { liveRoomUserInfo: { user: { roomId: room.roomId, uniqueId: room.uniqueId, id: room.ownerId }, liveRoom: { status: this.roomStatus } } } };
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<html><body><script id="SIGI_STATE" type="application/json">${JSON.stringify(state)}</script></body></html>`);
      return;
    }
    if (url.pathname === "/webcast/room/info/") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ status_code: 0, data: { id_str: room.roomId, status: this.roomStatus, title: room.title, create_time: room.createTime, owner: { id_str: room.ownerId, display_id: room.uniqueId, avatar_thumb: { url_list: ["https://p16.example.invalid/streamer.webp"] } } } }));
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ status_code: 404, message: "not found" }));
  }

  #onSign(req: IncomingMessage, res: ServerResponse): void {
    const url = this.#record("sign", req);
    const match = /^\/webcast\/rooms\/(\d+)\/connect$/.exec(url.pathname);
    if (!match) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: 404, message: "not found" }));
      return;
    }
    if (this.signStatus !== null) {
      res.writeHead(this.signStatus, { "content-type": "application/json", "retry-after": "1" });
      res.end(JSON.stringify({ code: this.signStatus, message: "refused by the fake sign server", limit_label: "fake" }));
      return;
    }
    const pushServer = `ws://127.0.0.1:${(this.#sign.address() as AddressInfo).port}/webcast/im/push/v2/`;
    const body = encodeFetchResult([], { cursor: `cursor-${++this.#cursor}`, internalExt: `ext-${this.#cursor}`, pushServer });
    res.writeHead(200, { "content-type": "application/protobuf", "x-set-tt-cookie": "ttwid=fake-ttwid; tt-target-idc=useast1a", "x-room-id": match[1] ?? "" });
    res.end(Buffer.from(body));
  }
}
