import { connect } from "@ovation/client/socket";
import type { OvationSocket } from "@ovation/client/socket";
import type { BrowserSourceBootstrap } from "../bootstrap.js";
import { fetchConfig } from "./config.js";
import type { BrowserSourceConfig } from "./config.js";
import type { PageStatus } from "./page-state.js";
import { isRefusedToken } from "./revocation.js";

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

/**
 * Keeps a page's config fresh on its socket: reads it again on `browser-source-updated` (unless
 * `onUpdated` is false) and on every join of the page's own room, since a save or progress announced
 * between the config's load and the join (or while the socket was down) reached nobody here. A
 * fresh config goes to `apply`; a failed read keeps the previous one and says so, and a refused
 * token stops the page. Returns the reload, for a page that also reads on a timer.
 */
export function keepConfigFresh(
  socket: BrowserSourceSocket,
  page: {
    bootstrap: BrowserSourceBootstrap;
    status: PageStatus;
    ownRoom: () => string | undefined;
    apply: (fresh: BrowserSourceConfig) => void;
    stop: () => void;
    onUpdated?: boolean;
  },
): () => void {
  const reload = (): void => {
    void fetchConfig(page.bootstrap).then(
      (fresh) => {
        page.status.configLoaded();
        page.apply(fresh);
      },
      (error: unknown) => {
        page.status.error(`config reload failed, keeping the previous one: ${error instanceof Error ? error.message : String(error)}`);
        if (isRefusedToken(error)) page.stop();
      },
    );
  };
  if (page.onUpdated !== false) socket.on("browser-source-updated", reload);
  socket.on("joined", (payload) => {
    if (payload.room === page.ownRoom()) reload();
  });
  return reload;
}
