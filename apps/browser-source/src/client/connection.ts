import type { ClientToServerEvents, ServerToClientEvents } from "@ovation/core";
import { io } from "socket.io-client";
import type { Socket } from "socket.io-client";
import type { BrowserSourceBootstrap } from "../bootstrap.js";

/** The page's typed socket. */
export type BrowserSourceSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Opens the page's socket, authenticated with the browser source's access token at the handshake.
 * socket.io reconnects by itself (with backoff) after a network drop or a server restart.
 */
export function openSocket(bootstrap: BrowserSourceBootstrap): BrowserSourceSocket {
  return io(bootstrap.socket_url, {
    auth: { browserSourceToken: bootstrap.access_token },
    withCredentials: true,
    reconnection: true,
    reconnectionDelay: 1_000,
    reconnectionDelayMax: 10_000,
  });
}
