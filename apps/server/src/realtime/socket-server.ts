import type { IncomingMessage } from "node:http";
import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import type { Redis } from "ioredis";
import { Server } from "socket.io";
import type { Logger } from "pino";
import { z } from "zod";
import { INBOUND_EVENT_SCHEMAS } from "@ovation/core";
import type { ClientToServerEvents } from "@ovation/core";
import { checkBearer, sourceThrottleKey } from "../auth/bearer-check.js";
import type { FailedAuthCounter } from "../auth/failed-auth-throttle.js";
import type { TokenVerifierChain } from "../auth/token-verifier-chain.js";
import { bearerToken } from "../auth/token-verifier-chain.js";
import { ERROR_CODES } from "../errors.js";
import type { Repositories } from "../store/repositories.js";
import { BROWSER_SOURCES_ROOM, browserSourceRoom } from "./gateway.js";
import type { RealtimeGateway } from "./gateway.js";
import { credentialOf } from "./revoked-credentials.js";
import { isUsersRoom, missingRoomScopes, parseRoom } from "./rooms.js";
import { onGuardedEvent, refuseUnknownEvents } from "./socket-guard.js";
import type { OvationIo, OvationSocket, SocketAuthenticator, SocketIdentity } from "./socket-types.js";

/** Name of the sticky-session cookie. */
export const SERVER_ID_COOKIE = "serverid";

/** How long socket.io keeps a dropped connection's rooms and missed events for its recovery. */
export const CONNECTION_RECOVERY_MS = 2 * 60_000;

/** What the socket server needs. */
export interface SocketServerOptions {
  httpServer: HttpServer;
  repos: Repositories;
  verifiers: TokenVerifierChain;
  /** The failed-authentication throttle shared with HTTP: failed handshakes count like failed requests. */
  failedAuth: FailedAuthCounter;
  authenticators: readonly SocketAuthenticator[];
  hub: RealtimeGateway;
  serverId: string;
  /**
   * Origins whose pages may be recognised by the registered authenticators (cookies). A page of any
   * other origin can still connect with a token, but a session cookie it carries is ignored, so a
   * foreign site cannot read a signed-in user's rooms.
   */
  trustedOrigins: readonly string[];
  logger: Logger;
  /**
   * With several nodes: the Redis connection of the socket.io adapter (room emits reach every
   * node's sockets) and of connection-state recovery; null or absent on one node.
   */
  redis?: Redis | null;
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

/** The handshake `auth` object: every field optional, each a bounded string when present. */
const handshakeAuthSchema = z.looseObject({
  token: z.string().max(8192).optional(),
  browserSourceToken: z.string().max(8192).optional(),
});

/** Who the handshake is, or why not: `null` for a bad credential, a number of seconds when throttled. */
type Identified = SocketIdentity | null | { throttled: number };

async function bearerIdentity(options: SocketServerOptions, source: string, token: string): Promise<Identified> {
  const check = await checkBearer(options.verifiers, options.failedAuth, source, token);
  if (check.ok) return { kind: "bearer", userId: check.principal.userId, scopes: check.principal.scopes, credential: credentialOf(check.principal) };
  return check.retryAfterSeconds > 0 ? { throttled: check.retryAfterSeconds } : null;
}

async function identify(socket: OvationSocket, options: SocketServerOptions): Promise<Identified> {
  const source = socket.handshake.address;
  const parsed = handshakeAuthSchema.safeParse(socket.handshake.auth);
  if (!parsed.success) {
    await options.failedAuth.recordFailure(sourceThrottleKey(source));
    return null;
  }
  const auth = parsed.data;
  if (auth.token !== undefined) return bearerIdentity(options, source, auth.token.replace(/^Bearer\s+/i, "").trim());
  const sourceToken = auth.browserSourceToken;
  if (sourceToken !== undefined) {
    const wait = await options.failedAuth.retryAfterSeconds(sourceThrottleKey(source));
    const found = sourceToken.length > 128 ? null : options.repos.browserSources.findByAccessToken(sourceToken);
    if (found) return { kind: "browser-source", userId: found.user_id, browserSourceId: found.id };
    await options.failedAuth.recordFailure(sourceThrottleKey(source));
    return wait > 0 ? { throttled: wait } : null;
  }
  const header = bearerToken(socket.handshake.headers.authorization);
  if (header !== null) return bearerIdentity(options, source, header);
  const origin = socket.handshake.headers.origin;
  if (origin !== undefined && !options.trustedOrigins.includes(origin)) return { kind: "anonymous" };
  for (const authenticator of options.authenticators) {
    const identity = await authenticator(socket.handshake);
    if (identity) return identity;
  }
  return { kind: "anonymous" };
}

function refuse(socket: OvationSocket, code: "OVATION_ERR_REALTIME_ROOM_INVALID" | "OVATION_ERR_REALTIME_ROOM_FORBIDDEN", room: string): void {
  socket.emit("error", { code, message: ERROR_CODES[code].message, room, event: "room" });
}

function handshakeError(code: "OVATION_ERR_REALTIME_UNAUTHENTICATED" | "OVATION_ERR_REALTIME_TOO_MANY_FAILURES", retryAfter?: number): Error {
  const message = retryAfter === undefined ? ERROR_CODES[code].message : `${ERROR_CODES[code].message} Retry after ${retryAfter} seconds.`;
  const error = new Error(message) as Error & { data?: unknown };
  error.data = retryAfter === undefined ? { code } : { code, retry_after: retryAfter };
  return error;
}

/** The events of the main namespace, each with its schema (core's realtime contracts). */
const EVENTS = Object.keys(INBOUND_EVENT_SCHEMAS) as Array<keyof ClientToServerEvents>;

/**
 * Attaches socket.io to the HTTP server: handshake authentication (bearer token, browser-source
 * token, registered authenticators, else anonymous; failed handshakes throttled like failed HTTP
 * authentications), the `serverid` sticky cookie, `room` joins restricted to the socket's own user
 * and the scope of the room's kind (or public `.chat` rooms) and `ack` for the alert log. Every
 * inbound event is schema-checked and its handler guarded (socket-guard.ts).
 */
export function createSocketServer(options: SocketServerOptions): OvationIo {
  const redis = options.redis ?? null;
  const io: OvationIo = new Server(options.httpServer, {
    cors: { origin: true, credentials: true },
    maxHttpBufferSize: 16_384,
    serveClient: false,
    // A client back within two minutes gets its rooms and the events it missed (docs/client.md);
    // the handshake middleware still runs, so a revoked token or browser source stays out.
    connectionStateRecovery: { maxDisconnectionDuration: CONNECTION_RECOVERY_MS, skipMiddlewares: false },
    // Several nodes: emits go through Redis streams (one XADD per emit, read by every node), and the
    // recovery sessions live in Redis, so a socket recovers on any node.
    ...(redis === null
      ? {}
      : { adapter: createAdapter(redis, { streamName: "ovation:socket.io", sessionKeyPrefix: "ovation:socket.io:session:", channelPrefix: "ovation:socket.io", onlyPlaintext: true, blockTimeInMs: 1_000 }) }),
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
          next(handshakeError("OVATION_ERR_REALTIME_UNAUTHENTICATED"));
          return;
        }
        if ("throttled" in identity) {
          next(handshakeError("OVATION_ERR_REALTIME_TOO_MANY_FAILURES", identity.throttled));
          return;
        }
        // A store that has not caught up yet (another node revoked the token a moment ago) cannot let it in.
        if (identity.kind === "bearer" && options.hub.isRevoked(identity.credential)) {
          next(handshakeError("OVATION_ERR_REALTIME_UNAUTHENTICATED"));
          return;
        }
        // A recovered socket got its missed packets from the adapter: the hub's replay would repeat
        // them. Its rooms were restored from the session: kept only for the same identity.
        const sameIdentity = socket.recovered && JSON.stringify(socket.data.identity) === JSON.stringify(identity);
        if (socket.recovered && !sameIdentity) for (const room of socket.rooms) if (room !== socket.id) void socket.leave(room);
        socket.data.replayed = sameIdentity && socket.data.replayed === true;
        socket.data.identity = identity;
        next();
      },
      (error: unknown) => {
        options.logger.error({ err: error }, "socket authentication failed");
        next(new Error("Server Error"));
      },
    );
  });

  io.on("connection", (socket) => {
    const guard = { logger: options.logger };
    const who = socket.data.identity;
    // Revoked while its handshake was being checked: the revocation's disconnect did not see it yet.
    if (who.kind === "bearer" && options.hub.refuseIfRevoked(socket, who.credential)) return;
    // Internal rooms (not `room`-joinable: they are no room ids): per-source queue control, and
    // dashboard-only events skip browser sources.
    if (who.kind === "browser-source") void socket.join([BROWSER_SOURCES_ROOM, browserSourceRoom(who.browserSourceId)]);
    refuseUnknownEvents(socket, EVENTS);
    onGuardedEvent(socket, "room", INBOUND_EVENT_SCHEMAS.room, guard, ([roomId]) => {
      const room = parseRoom(roomId);
      if (!room) return refuse(socket, "OVATION_ERR_REALTIME_ROOM_INVALID", roomId);
      if (room.chat) {
        void socket.join(roomId);
        socket.emit("joined", { room: roomId });
        return;
      }
      const identity = socket.data.identity;
      const user = identity.kind === "anonymous" ? null : options.repos.users.get(identity.userId);
      if (!user || !isUsersRoom(options.repos, user, room)) return refuse(socket, "OVATION_ERR_REALTIME_ROOM_FORBIDDEN", roomId);
      const missing = identity.kind === "bearer" ? missingRoomScopes(room, identity.scopes) : [];
      if (missing.length > 0) {
        const code = "OVATION_ERR_REALTIME_MISSING_SCOPE";
        socket.emit("error", { code, message: `${ERROR_CODES[code].message} It needs one of: ${missing.join(", ")}.`, room: roomId, event: "room", missing_scopes: missing });
        return;
      }
      void socket.join(roomId);
      socket.emit("joined", { room: roomId });
      options.hub.replayTo(socket);
    });
    onGuardedEvent(socket, "ack", INBOUND_EVENT_SCHEMAS.ack, guard, ([notificationId]) => options.hub.acknowledge(socket, notificationId));
  });

  options.hub.attach(io, redis !== null);
  return io;
}
