import type { IncomingMessage } from "node:http";
import type { Server as HttpServer } from "node:http";
import { Server } from "socket.io";
import type { Logger } from "pino";
import type { TokenVerifierChain } from "../auth/token-verifier-chain.js";
import { bearerToken } from "../auth/token-verifier-chain.js";
import { ERROR_CODES } from "../errors.js";
import type { Repositories } from "../store/repositories.js";
import type { AlertHub } from "./alert-hub.js";
import { isUsersRoom, parseRoom } from "./rooms.js";
import type { OvationIo, OvationSocket, SocketAuthenticator, SocketIdentity } from "./socket-types.js";

/** Name of the sticky-session cookie. */
export const SERVER_ID_COOKIE = "serverid";

/** What the socket server needs. */
export interface SocketServerOptions {
  httpServer: HttpServer;
  repos: Repositories;
  verifiers: TokenVerifierChain;
  authenticators: readonly SocketAuthenticator[];
  hub: AlertHub;
  serverId: string;
  /**
   * Origins whose pages may be recognised by the registered authenticators (cookies). A page of any
   * other origin can still connect with a token, but a session cookie it carries is ignored, so a
   * foreign site cannot read a signed-in user's rooms.
   */
  trustedOrigins: readonly string[];
  logger: Logger;
}

function cookieValue(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

async function identify(socket: OvationSocket, options: SocketServerOptions): Promise<SocketIdentity | null> {
  const auth = socket.handshake.auth as Record<string, unknown>;
  const token = typeof auth["token"] === "string" ? auth["token"].replace(/^Bearer\s+/i, "").trim() : null;
  if (token !== null) {
    const principal = await options.verifiers.verify(token);
    return principal ? { kind: "bearer", userId: principal.userId, scopes: principal.scopes } : null;
  }
  const sourceToken = auth["browserSourceToken"];
  if (typeof sourceToken === "string") {
    if (sourceToken.length > 128) return null;
    const source = options.repos.browserSources.findByAccessToken(sourceToken);
    return source ? { kind: "browser-source", userId: source.user_id, browserSourceId: source.id } : null;
  }
  const header = bearerToken(socket.handshake.headers.authorization);
  if (header !== null) {
    const principal = await options.verifiers.verify(header);
    return principal ? { kind: "bearer", userId: principal.userId, scopes: principal.scopes } : null;
  }
  const origin = socket.handshake.headers.origin;
  if (origin !== undefined && !options.trustedOrigins.includes(origin)) return { kind: "anonymous" };
  for (const authenticator of options.authenticators) {
    const identity = await authenticator(socket.handshake);
    if (identity) return identity;
  }
  return { kind: "anonymous" };
}

function refuse(socket: OvationSocket, code: "OVATION_ERR_REALTIME_ROOM_INVALID" | "OVATION_ERR_REALTIME_ROOM_FORBIDDEN", room: string): void {
  socket.emit("error", { code, message: ERROR_CODES[code].message, room });
}

/**
 * Attaches socket.io to the HTTP server: handshake authentication (bearer token, browser-source
 * token, registered authenticators, else anonymous), the `serverid` sticky cookie, `room` joins
 * restricted to the socket's own user (or public `.chat` rooms) and `ack` for the alert log.
 */
export function createSocketServer(options: SocketServerOptions): OvationIo {
  const io: OvationIo = new Server(options.httpServer, {
    cors: { origin: true, credentials: true },
    maxHttpBufferSize: 16_384,
    serveClient: false,
  });

  io.engine.on("initial_headers", (headers: Record<string, string | string[]>, req: IncomingMessage) => {
    if (cookieValue(req, SERVER_ID_COOKIE) !== options.serverId) {
      headers["set-cookie"] = `${SERVER_ID_COOKIE}=${encodeURIComponent(options.serverId)}; Path=/; HttpOnly; SameSite=Lax`;
    }
  });

  io.use((socket, next) => {
    identify(socket, options).then(
      (identity) => {
        if (!identity) {
          const error = new Error(ERROR_CODES.OVATION_ERR_REALTIME_UNAUTHENTICATED.message) as Error & { data?: unknown };
          error.data = { code: "OVATION_ERR_REALTIME_UNAUTHENTICATED" };
          next(error);
          return;
        }
        socket.data.identity = identity;
        socket.data.replayed = false;
        next();
      },
      (error: unknown) => {
        options.logger.error({ err: error }, "socket authentication failed");
        next(new Error("Server Error"));
      },
    );
  });

  io.on("connection", (socket) => {
    socket.on("room", (roomId: unknown) => {
      const shown = typeof roomId === "string" ? roomId.slice(0, 256) : String(roomId).slice(0, 64);
      const room = parseRoom(roomId);
      if (!room || typeof roomId !== "string") return refuse(socket, "OVATION_ERR_REALTIME_ROOM_INVALID", shown);
      if (room.chat) {
        void socket.join(roomId);
        socket.emit("joined", { room: roomId });
        return;
      }
      const identity = socket.data.identity;
      const user = identity.kind === "anonymous" ? null : options.repos.users.get(identity.userId);
      if (!user || !isUsersRoom(options.repos, user, room)) return refuse(socket, "OVATION_ERR_REALTIME_ROOM_FORBIDDEN", roomId);
      void socket.join(roomId);
      socket.emit("joined", { room: roomId });
      options.hub.replayTo(socket);
    });
    socket.on("ack", (notificationId: unknown) => options.hub.acknowledge(socket, notificationId));
  });

  options.hub.attach(io);
  return io;
}
