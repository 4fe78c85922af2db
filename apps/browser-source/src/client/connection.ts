import type { ClientToServerEvents, ServerToClientEvents } from "@ovation/core/contracts";
import { io } from "socket.io-client";
import type { Socket } from "socket.io-client";
import type { BrowserSourceBootstrap } from "../bootstrap.js";
import type { PageStatus } from "./page-state.js";
import { retryDelayMs } from "./retry.js";

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

/**
 * socket.io stops reconnecting by itself when the server ends the connection (a graceful restart
 * disconnects every socket) or refuses the handshake; this reconnects in those cases too, with
 * backoff, until `isStopped()` says the page has given up (its token was revoked).
 */
export function keepConnected(socket: BrowserSourceSocket, isStopped: () => boolean): void {
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const retry = (): void => {
    if (isStopped() || socket.active || timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      if (!isStopped() && !socket.connected) socket.connect();
    }, retryDelayMs(attempt));
    attempt += 1;
  };
  socket.on("connect", () => {
    attempt = 0;
  });
  socket.on("disconnect", (reason) => {
    if (reason === "io server disconnect") retry();
  });
  socket.on("connect_error", () => retry());
}

/**
 * Mirrors the socket's life on the page status: joins `room()` on every connect, reports
 * connecting/connected/disconnected, records socket errors, and runs `checkToken` after a refused
 * connection or an `error` event (so a revoked address stops the page).
 */
export function reportConnection(socket: BrowserSourceSocket, status: PageStatus, room: () => string | null, checkToken: () => void): void {
  socket.on("connect", () => {
    status.state("connecting");
    const id = room();
    if (id !== null) socket.emit("room", id);
  });
  socket.on("joined", () => status.state("connected"));
  socket.on("disconnect", () => status.state("disconnected"));
  socket.on("connect_error", (error) => {
    status.state("disconnected");
    status.error(`socket: ${error.message}`);
    checkToken();
  });
  socket.on("error", (payload) => {
    status.error(`${payload.code}: ${payload.message}`);
    checkToken();
  });
}
