import { io } from "socket.io-client";
import type { ManagerOptions, Socket, SocketOptions } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "@ovation/core/contracts";
import { OvationSocketError } from "./socket-errors.js";
import { chooseServerId, fetchServerIds, serverIdCookie } from "./server-id.js";

/** The typed socket.io socket underneath. */
export type RawOvationSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A server event's name. */
export type ServerEventName = keyof ServerToClientEvents;

/** The payload of a server event (the NotifySub of `notifysub`, ...). */
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];

/** Where the connection is. */
export type SocketState = "connecting" | "connected" | "disconnected" | "closed";

/** A change of state: `recovered` when socket.io gave back the session (rooms and missed events); the error of a refused or failed handshake. */
export interface SocketStatus {
  state: SocketState;
  recovered: boolean;
  reason: string | null;
  error: OvationSocketError | null;
}

/** How to connect. */
export interface ConnectOptions {
  /** The server's socket URL (its base URL, for example `http://127.0.0.1:8080`). */
  url: string;
  /** A bearer token (personal access token or OAuth access token), or a function read at every handshake. */
  token?: string | (() => string | Promise<string>);
  /** The access token of a browser source (instead of `token`). */
  browserSourceToken?: string;
  /** Rooms joined on every (re)connection (besides those of {@link OvationSocket.join}); a function is read at each connection. */
  rooms?: readonly string[] | (() => readonly string[]);
  /**
   * The `serverid` sticky-session cookie: `"auto"` picks one of `GET /server-ids`, a string names one,
   * null (default) sends none. Node sends it as a `Cookie` header; browsers keep the cookie the server sets.
   */
  serverId?: string | "auto" | null;
  /** Reconnection after the server ends the connection or refuses the handshake (socket.io retries network drops itself): first delay and cap. */
  retry?: { minDelayMs?: number; maxDelayMs?: number };
  /** How many acknowledged notification ids are remembered to drop (and acknowledge again) a second delivery (default 500). */
  ackMemory?: number;
  /** More socket.io-client options (transports, path, ...). */
  io?: Partial<ManagerOptions & SocketOptions>;
  /** The fetch used for `/server-ids`. */
  fetch?: typeof fetch;
}

/** The connection made by {@link connect}. */
export interface OvationSocket {
  /** Handles a server event with its typed payload; returns a function that removes the handler. */
  on<E extends ServerEventName>(event: E, handler: (payload: ServerEventPayload<E>) => void): () => void;
  /** Follows the connection's state; returns a function that removes the handler. */
  onStatus(handler: (status: SocketStatus) => void): () => void;
  /**
   * Joins a room (`<user_uuid>.<platform>.<platform_user_id>[.chat]`) now and after every reconnection;
   * resolves with the server's `joined`, rejects with an {@link OvationSocketError} when it refuses.
   */
  join(room: string): Promise<{ room: string }>;
  /** Stops re-joining a room after reconnections (the server keeps the current membership until the socket ends). */
  forget(room: string): void;
  /** Joins every current room again now (after the answer of a `rooms` function changed); nothing while disconnected. */
  rejoin(): void;
  /** Acknowledges that an alert was shown (or dropped), so the server does not hand it over again. */
  ack(notificationId: string): void;
  /** Resolves once connected (at once when already connected). */
  whenConnected(): Promise<void>;
  /** Ends the connection for good. */
  close(): void;
  /** Whether the socket is connected now. */
  readonly connected: boolean;
  /** The `serverid` sent, once chosen. */
  readonly serverId: string | null;
  /** The socket.io socket (for what this helper does not cover). */
  readonly raw: RawOvationSocket;
}

const isBrowser = (): boolean => typeof document !== "undefined";

/** Whether `url` has the origin of the page (browsers). */
function sameOrigin(url: string): boolean {
  try {
    const page = globalThis.location;
    return page !== undefined && new URL(url, page.href).origin === page.origin;
  } catch {
    return false;
  }
}

/**
 * Connects to an Ovation server's socket: authenticates at the handshake, joins rooms on every
 * connection, reconnects (socket.io's own backoff for network drops; this helper's for a server
 * that ended the connection or refused it), and recovers missed events: socket.io's
 * connection-state recovery gives back rooms and events of a short drop, otherwise the rooms are
 * joined again and the server hands a browser source every alert it has not acknowledged.
 */
export function connect(options: ConnectOptions): OvationSocket {
  const url = options.url.replace(/\/+$/, "");
  const minDelay = options.retry?.minDelayMs ?? 1_000;
  const maxDelay = options.retry?.maxDelayMs ?? 30_000;
  const ackMemory = options.ackMemory ?? 500;
  const socket: RawOvationSocket = io(url, {
    withCredentials: true,
    reconnectionDelay: minDelay,
    reconnectionDelayMax: maxDelay,
    ...options.io,
    autoConnect: false,
    auth: (cb: (data: object) => void) => {
      if (options.browserSourceToken !== undefined) return cb({ browserSourceToken: options.browserSourceToken });
      const token = options.token;
      if (token === undefined) return cb({});
      void Promise.resolve(typeof token === "function" ? token() : token).then(
        (value) => cb({ token: value }),
        () => cb({}),
      );
    },
  });

  const explicitRooms = new Set<string>();
  const acked: string[] = [];
  const statusHandlers = new Set<(status: SocketStatus) => void>();
  let closed = false;
  let serverId: string | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const report = (status: SocketStatus): void => {
    for (const handler of statusHandlers) handler(status);
  };
  const roomsNow = (): string[] => {
    const given = typeof options.rooms === "function" ? options.rooms() : (options.rooms ?? []);
    return [...new Set([...given, ...explicitRooms])];
  };
  const retryLater = (seconds: number | null = null): void => {
    if (closed || socket.active || timer !== null) return;
    const delay = seconds !== null ? seconds * 1000 : Math.min(maxDelay, minDelay * 2 ** Math.min(attempt, 10));
    attempt += 1;
    timer = setTimeout(() => {
      timer = null;
      if (!closed && !socket.connected) socket.connect();
    }, delay);
  };

  socket.on("connect", () => {
    attempt = 0;
    report({ state: "connected", recovered: socket.recovered, reason: null, error: null });
    // A recovered session still has its rooms (and gets the events it missed); otherwise join again.
    if (!socket.recovered) for (const room of roomsNow()) socket.emit("room", room);
  });
  socket.on("disconnect", (reason) => {
    report({ state: "disconnected", recovered: false, reason, error: null });
    if (reason === "io server disconnect") retryLater();
  });
  socket.on("connect_error", (error) => {
    const problem = OvationSocketError.fromConnectError(error);
    report({ state: "disconnected", recovered: false, reason: "connect_error", error: problem });
    retryLater(problem.retryAfter);
  });

  const start = async (): Promise<void> => {
    if (options.serverId === "auto") {
      try {
        serverId = chooseServerId(await fetchServerIds(url, options.fetch));
      } catch {
        serverId = null; // no sticky session: any node answers
      }
    } else serverId = options.serverId ?? null;
    // Node has no cookie jar: name the server in a Cookie header. A browser page of the socket's own
    // origin writes the cookie; elsewhere the browser keeps the one the server sets (withCredentials).
    if (serverId !== null && !isBrowser()) socket.io.opts.extraHeaders = { ...socket.io.opts.extraHeaders, cookie: serverIdCookie(serverId) };
    else if (serverId !== null && sameOrigin(url)) document.cookie = `${serverIdCookie(serverId)}; path=/; SameSite=Lax`;
    if (closed) return;
    report({ state: "connecting", recovered: false, reason: null, error: null });
    socket.connect();
  };
  void start();

  return {
    on(event, handler) {
      const listener = (event === "notifysub"
        ? (payload: ServerEventPayload<"notifysub">) => {
            const id = payload?.notification?.id;
            // A second delivery of an alert already shown is acknowledged again (the first ack may have
            // been lost with the connection) and dropped; an explicit replay (ovation.replay) always passes.
            if (typeof id === "string" && payload.ovation?.replay !== true && acked.includes(id)) {
              socket.emit("ack", id);
              return;
            }
            (handler as (p: ServerEventPayload<"notifysub">) => void)(payload);
          }
        : handler) as never;
      socket.on(event, listener);
      return () => void socket.off(event, listener);
    },
    onStatus(handler) {
      statusHandlers.add(handler);
      return () => void statusHandlers.delete(handler);
    },
    join(room) {
      explicitRooms.add(room);
      return new Promise((resolve, reject) => {
        const onJoined = (payload: { room: string }) => {
          if (payload.room !== room) return;
          done();
          resolve(payload);
        };
        const onError = (payload: ServerEventPayload<"error">) => {
          if (payload.room !== room) return;
          done();
          explicitRooms.delete(room);
          reject(OvationSocketError.fromPayload(payload));
        };
        const done = () => {
          socket.off("joined", onJoined);
          socket.off("error", onError);
        };
        socket.on("joined", onJoined);
        socket.on("error", onError);
        if (socket.connected) socket.emit("room", room);
      });
    },
    forget(room) {
      explicitRooms.delete(room);
    },
    rejoin() {
      if (socket.connected) for (const room of roomsNow()) socket.emit("room", room);
    },
    ack(notificationId) {
      acked.push(notificationId);
      if (acked.length > ackMemory) acked.shift();
      socket.emit("ack", notificationId);
    },
    whenConnected() {
      if (socket.connected) return Promise.resolve();
      return new Promise((resolve) => socket.once("connect", () => resolve()));
    },
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      socket.disconnect();
      report({ state: "closed", recovered: false, reason: "closed", error: null });
    },
    get connected() {
      return socket.connected;
    },
    get serverId() {
      return serverId;
    },
    raw: socket,
  };
}
