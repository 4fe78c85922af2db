import type { ClientToServerEvents, ServerToClientEvents } from "@ovation/core";
import type { Server, Socket } from "socket.io";

/** Who a socket is, established at the handshake. */
export type SocketIdentity =
  | { kind: "bearer"; userId: number; scopes: readonly string[] }
  | { kind: "browser-source"; userId: number; browserSourceId: number }
  | { kind: "session"; userId: number }
  /** No credentials: may read public `.chat` rooms only. */
  | { kind: "anonymous" };

/** Per-socket data. */
export interface SocketData {
  identity: SocketIdentity;
  /** Whether the unacknowledged alerts were already sent to this socket. */
  replayed: boolean;
}

/** Events between the nodes of a cluster (socket.io `serverSideEmit`, through the Redis adapter). */
export interface InterNodeEvents {
  /** Disconnect every socket of this user (the account was deleted or its sessions revoked). */
  "disconnect-user": (userId: number) => void;
  /** Disconnect the sockets of this browser source (its address was regenerated). */
  "disconnect-browser-source": (browserSourceId: number) => void;
}

/** The typed socket.io server of the app. */
export type OvationIo = Server<ClientToServerEvents, ServerToClientEvents, InterNodeEvents, SocketData>;
/** A typed socket of the app. */
export type OvationSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterNodeEvents, SocketData>;

/**
 * Recognises a socket from its handshake (for example the identity module's session cookie).
 * Returns null when the handshake carries nothing it knows.
 */
export type SocketAuthenticator = (handshake: Socket["handshake"]) => SocketIdentity | null | Promise<SocketIdentity | null>;
