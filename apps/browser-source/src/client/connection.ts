import { connect } from "@ovation/client/socket";
import type { OvationSocket } from "@ovation/client/socket";
import type { BrowserSourceBootstrap } from "../bootstrap.js";
import type { PageStatus } from "./page-state.js";

/** The page's socket: the client SDK's socket helper. */
export type BrowserSourceSocket = OvationSocket;

/**
 * Opens the page's socket with `@ovation/client/socket`: authenticated with the browser source's
 * access token at the handshake, joining `room()` (one room or several) on every connection, reconnecting with backoff
 * (socket.io's for a network drop, 1 s doubling up to 30 s after a server restart or a refused
 * handshake) and getting back the alerts missed meanwhile.
 */
export function openSocket(bootstrap: BrowserSourceBootstrap, room: () => string | readonly string[] | null): BrowserSourceSocket {
  return connect({
    url: bootstrap.socket_url,
    browserSourceToken: bootstrap.access_token,
    rooms: () => {
      const id = room();
      return id === null ? [] : typeof id === "string" ? [id] : [...id];
    },
    retry: { minDelayMs: 1_000, maxDelayMs: 30_000 },
    io: { reconnectionDelayMax: 10_000 },
  });
}

/**
 * Mirrors the socket's life on the page status (and on `show`, a visible label): connecting until
 * the room is joined (connected at once when socket.io recovered the session), disconnected on a
 * drop; a refused connection or an `error` event is recorded and runs `checkToken`, so a revoked
 * address stops the page.
 */
export function reportConnection(socket: BrowserSourceSocket, status: PageStatus, checkToken: () => void, show?: (text: string) => void): void {
  socket.onStatus((change) => {
    if (change.state === "connected") {
      status.state(change.recovered ? "connected" : "connecting");
      show?.(change.recovered ? "connected" : "connecting");
    } else if (change.state === "disconnected") {
      status.state("disconnected");
      if (change.error === null) {
        show?.("disconnected, reconnecting");
        return;
      }
      status.error(`socket: ${change.error.message}`);
      show?.("cannot reach the service, retrying");
      checkToken();
    }
  });
  socket.on("joined", () => {
    status.state("connected");
    show?.("connected");
  });
  socket.on("error", (payload) => {
    status.error(`${payload.code}: ${payload.message}`);
    show?.(`error: ${payload.message}`);
    checkToken();
  });
}
