import type { ClientToServerEvents, ServerToClientEvents } from "@ovation/core";
import type { Server, Socket } from "socket.io";

/** Which token opened a socket: its verifier's kind and id, and an OAuth token's grant. Never the token itself. */
export interface SocketCredential {
  kind: string;
  tokenId: string;
  grantId?: string;
}

/** A revoked credential: one token (kind and id), or every token of an OAuth grant. */
export type RevokedCredential = { kind: string; tokenId: string } | { grantId: string };

/** Who a socket is, established at the handshake. */
export type SocketIdentity =
  | { kind: "bearer"; userId: number; scopes: readonly string[]; credential: SocketCredential }
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
  /** Disconnect the sockets opened with this credential (a token or an OAuth grant was revoked). */
  "disconnect-credential": (revoked: RevokedCredential) => void;
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
