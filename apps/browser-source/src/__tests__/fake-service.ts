import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { ClientToServerEvents, NotifySub, QueueControl, ServerToClientEvents } from "@ovation/core";
import { Server } from "socket.io";
import { assetsDir, renderBrowserSourceErrorPage, renderBrowserSourcePage } from "../index.js";

/** A 1x1 transparent PNG. */
export const PIXEL_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

const CONTENT_TYPES: Record<string, string> = { ".js": "text/javascript", ".css": "text/css", ".woff2": "font/woff2" };

/**
 * A small stand-in for the server's browser-source side (page, assets, config, socket rooms), used
 * to drive the page in Chromium where the real server is not needed: it speaks the contract of
 * docs/contracts.md and records what the page sends back.
 */
export class FakeService {
  readonly acks: string[] = [];
  readonly joins: string[] = [];
  alertSet: Record<string, unknown> | null = null;
  revoked = false;
  readonly token = "0b7d5c1e-4f7a-4b1c-9d2e-3f4a5b6c7d8e";
  readonly room = "6a1f0c3e-2b4d-4e5f-8a9b-0c1d2e3f4a5b.ovation.1";
  #server = createServer((request, response) => void this.#handle(request, response));
  #io = new Server<ClientToServerEvents, ServerToClientEvents>(this.#server, { cors: { origin: true, credentials: true } });
  #stalled: ServerResponse[] = [];
  baseUrl = "";

  /** Starts listening on 127.0.0.1 on a free port. */
  async start(): Promise<void> {
    this.#io.use((socket, next) => {
      const auth = socket.handshake.auth as { browserSourceToken?: unknown };
      next(!this.revoked && auth.browserSourceToken === this.token ? undefined : new Error("unauthenticated"));
    });
    this.#io.on("connection", (socket) => {
      socket.on("room", (room) => {
        this.joins.push(room);
        if (room !== this.room) {
          socket.emit("error", { code: "OVATION_ERR_REALTIME_FORBIDDEN_ROOM", message: "not your room", room });
          return;
        }
        void socket.join(room);
        socket.emit("joined", { room });
      });
      socket.on("ack", (id) => this.acks.push(id));
    });
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.baseUrl = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** The page address of this fake browser source. */
  pageUrl(type = "alerts"): string {
    return `${this.baseUrl}/browser-source/${type}/${this.token}`;
  }

  /** Sends a notification to the room, as the server does for every alert. */
  notify(notification: NotifySub): void {
    this.#io.to(this.room).emit("notifysub", notification);
  }

  /** Sends a queue action to the room. */
  control(control: QueueControl): void {
    this.#io.to(this.room).emit("queue-control", control);
  }

  /** Tells the page its configuration changed. */
  updated(): void {
    this.#io.to(this.room).emit("browser-source-updated", { browser_source_id: 1, alert_set_id: null, reason: "alert-set-updated" });
  }

  /** Ends every socket from the server side, as a graceful restart does. */
  dropAll(): void {
    this.#io.disconnectSockets(true);
  }

  /** Revokes the token, as regenerating the address does: refused config, refused sockets, live ones dropped. */
  revoke(): void {
    this.revoked = true;
    this.#io.to(this.room).emit("error", { code: "OVATION_ERR_REALTIME_UNAUTHENTICATED", message: "This browser source address was regenerated." });
    this.#io.in(this.room).disconnectSockets(true);
  }

  /** Stops the server (answering any stalled media request first). */
  async close(): Promise<void> {
    for (const response of this.#stalled) response.destroy();
    this.#io.disconnectSockets(true);
    await new Promise<void>((resolve) => void this.#io.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", this.baseUrl);
    const page = /^\/browser-source\/(alerts|effect-alerts|scenes|goalbars)\/([^/]+)$/.exec(url.pathname);
    if (page) {
      if (page[2] !== this.token) return this.#send(response, 404, "text/html", renderBrowserSourceErrorPage("Browser source not found"));
      const html = renderBrowserSourcePage({ type: page[1] as "alerts", access_token: this.token, api_base: this.baseUrl, socket_url: this.baseUrl });
      return this.#send(response, 200, "text/html; charset=utf-8", html);
    }
    if (url.pathname === `/browser-source/api/${this.token}/config` && !this.revoked) {
      const body = { browser_source: { id: 1, browser_source_type: "alerts" }, room: this.room, alert_set: this.alertSet };
      return this.#send(response, 200, "application/json", JSON.stringify(body));
    }
    if (url.pathname.startsWith("/browser-source/assets/")) {
      const file = path.join(assetsDir, path.normalize(url.pathname.slice("/browser-source/assets/".length)));
      if (!file.startsWith(assetsDir) || !(await stat(file).catch(() => null))?.isFile()) return this.#send(response, 404, "text/plain", "not found");
      response.writeHead(200, { "content-type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream" });
      createReadStream(file).pipe(response);
      return;
    }
    if (url.pathname === "/media/pixel.png") return this.#send(response, 200, "image/png", PIXEL_PNG);
    if (url.pathname.startsWith("/media/stall.")) {
      this.#stalled.push(response);
      return;
    }
    return this.#send(response, 404, "text/plain", "not found");
  }

  #send(response: ServerResponse, status: number, type: string, body: string | Buffer): void {
    response.writeHead(status, { "content-type": type });
    response.end(body);
  }
}
