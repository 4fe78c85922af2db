import type { BrowserSourceBootstrap } from "../../bootstrap.js";
import { loadConfigUntilReady } from "../alerts-page.js";
import type { BrowserSourceConfig } from "../config.js";
import { keepConfigFresh, openSocket, reportConnection } from "../connection.js";
import type { BrowserSourceSocket } from "../connection.js";
import type { PageStatus } from "../page-state.js";
import { revocationCheck } from "../revocation.js";

/** How often an overlay asks for its config again, to join the chat rooms of channels joined since. */
const REFRESH_MS = 60_000;

/** What an overlay page does with its config and socket. */
export interface OverlayHandlers {
  /** The rooms to join for this config (the own room is always joined, for updates and alerts). */
  rooms(config: BrowserSourceConfig): readonly string[];
  /** Starts drawing; called once. */
  start(config: BrowserSourceConfig, socket: BrowserSourceSocket): void;
  /** A fresh config (options saved in the dashboard, a channel joined since). */
  update(config: BrowserSourceConfig): void;
  /** The address was regenerated: clear the screen. */
  stop(): void;
}

/**
 * Runs an overlay page (`chat`, `events`, `emotewall`, `effect-alerts`): loads the config (retrying
 * while the service is unreachable), opens the socket on the own room and the overlay's rooms, reloads
 * the config on `browser-source-updated`, on every join of the own room and every minute, and stops
 * on a revoked address.
 */
export async function runOverlay(bootstrap: BrowserSourceBootstrap, status: PageStatus, handlers: OverlayHandlers): Promise<void> {
  let config = await loadConfigUntilReady(bootstrap, status);
  if (!config) {
    handlers.stop();
    return;
  }
  const roomsOf = (c: BrowserSourceConfig) => [c.room, ...handlers.rooms(c)];
  let rooms = roomsOf(config);
  const socket = openSocket(bootstrap, () => rooms);
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    clearInterval(refresh);
    socket.close();
    handlers.stop();
    status.state("error");
    status.error("this browser source address is no longer valid");
  };
  reportConnection(socket, status, revocationCheck(bootstrap, stop));
  handlers.start(config, socket);

  const reload = keepConfigFresh(socket, {
    bootstrap,
    status,
    ownRoom: () => config?.room,
    apply: (fresh) => {
      if (stopped) return;
      config = fresh;
      const next = roomsOf(fresh);
      const changed = next.length !== rooms.length || next.some((r, i) => r !== rooms[i]);
      rooms = next;
      if (changed) socket.rejoin();
      handlers.update(fresh);
    },
    stop,
  });
  const refresh = setInterval(reload, REFRESH_MS);
}

/** Reads a source's options with its schema; an unreadable set falls back to the defaults (and says so). */
export function readSettings<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } ; parse(value: unknown): T }, config: BrowserSourceConfig, status: PageStatus): T {
  const parsed = schema.safeParse(config.browser_source.settings ?? {});
  if (parsed.success) return parsed.data;
  status.error("the saved options are not readable; using the defaults");
  return schema.parse({});
}
