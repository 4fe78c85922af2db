import { randomInt, randomUUID } from "node:crypto";
import { NON_ALERT_TYPES } from "@ovation/core";
import type { AlertLogEntryView, AlertLogUpdate, BrowserSourceUpdated, GoalBarView, NotificationPayload, NotifySub, OverlaySettings, QueueControl, QueueStateView } from "@ovation/core";
import type { Logger } from "pino";
import { ApiError } from "../errors.js";
import type { SharedAcknowledgements } from "../redis/shared-acknowledgements.js";
import type { SharedNotificationIds } from "../redis/shared-notification-ids.js";
import type { Repositories } from "../store/repositories.js";
import type { RemoteStoreChange } from "../store/store.js";
import { upgradeLoggedNotification } from "../store/alert-log.js";
import { loggedNotification } from "../store/logged-alert.js";
import { timestamp } from "../store/records.js";
import { USER_CAPS, jsonBytes } from "../store/user-caps.js";
import type { AlertLogEntry } from "../store/records.js";
import { userRooms } from "./rooms.js";
import { handshakeBearer } from "./handshake-token.js";
import { RecentRevocations, isRevokedBy } from "./revoked-credentials.js";
import type { OvationIo, OvationSocket, RevokedCredential, SocketCredential } from "./socket-types.js";

/** How many real notification ids per user the de-duplication memory keeps. */
export const DEDUP_MEMORY_PER_USER = 10_000;

/**
 * The oldest unacknowledged alert a reconnecting browser source is sent again: 10 minutes. A source
 * that has never connected gets no backlog at all (docs/security.md, docs/contracts.md).
 */
export const BROWSER_SOURCE_BACKLOG_MAX_AGE_MS = 10 * 60_000;

/** Acknowledgements held for alerts this node's alert log does not hold yet (at most this many). */
export const HELD_ACKNOWLEDGEMENTS_MAX = 10_000;

/** An alert to publish to a user's browser sources. */
export interface AlertInput {
  userId: number;
  /** `subscription.type`: an alert type of the catalog (or a stream event). */
  type: string;
  platform: string;
  platformId: string;
  /** The documented payload of the type (`event` of the notification). */
  event: NotificationPayload;
  /** Inline template (variants 2 and 3), or null to resolve against the alert set. */
  template: Record<string, unknown> | null;
  /** Test alerts are shown and logged but never enter the de-duplication memory. */
  test: boolean;
  /** A notification id from the source (a platform message id); a fresh uuid when absent. */
  notificationId?: string;
  /** The raw platform event a plugin mapped, kept in `ovation.platform_data`. */
  platformData?: unknown;
  /** Sent by the event simulator: marked `ovation.simulated` in the log and the notification. */
  simulated?: boolean;
}

/**
 * Sends a socket `error` (OVATION_ERR_REALTIME_UNAUTHENTICATED) and closes its connection. The error
 * is written through this node's adapter only (`local`): with connection-state recovery a plain
 * `socket.emit` goes through Redis first and would arrive after the connection is closed.
 */
function refuseAndDisconnect(namespace: Pick<OvationIo["sockets"], "local">, socket: { id: string; disconnect(close: boolean): unknown }, message: string): void {
  namespace.local.to(socket.id).emit("error", { code: "OVATION_ERR_REALTIME_UNAUTHENTICATED", message });
  socket.disconnect(true);
}

/** A socket of any namespace (main, `/console`), as far as closing it goes. */
interface ClosableSocket {
  readonly id: string;
  readonly nsp: object;
  disconnect(close: boolean): unknown;
}

/** The credential a socket of any namespace was opened with: the main namespace keeps it in its identity, `/console` in its data. */
function credentialOfSocket(data: unknown): SocketCredential | undefined {
  const held = data as { identity?: { credential?: SocketCredential }; credential?: SocketCredential } | undefined;
  return held?.identity?.credential ?? held?.credential;
}

const REVOKED_MESSAGE = "The token this connection was opened with was revoked.";

/** A logged notification in the current shape (alerts logged before the payload moved are rewritten). */
function current(entry: AlertLogEntry): NotifySub {
  const notification = loggedNotification(entry);
  return upgradeLoggedNotification(notification) ?? notification;
}

/** The internal socket.io room every browser-source socket joins (so dashboard-only events skip them). */
export const BROWSER_SOURCES_ROOM = "internal:browser-sources";

/** The internal socket.io room of one browser source's sockets (per-source queue control). */
export function browserSourceRoom(browserSourceId: number): string {
  return `internal:browser-source:${browserSourceId}`;
}

/**
 * A log entry as the API and the `alert-log` event show it. `notification`: the entry's notification
 * when the caller holds it already (it was just logged), so its text is not parsed again.
 */
export function presentLogEntry(entry: AlertLogEntry, notification: NotifySub = current(entry)): AlertLogEntryView {
  return { notification, test: entry.test, cleared: entry.cleared, acknowledged_by: [...entry.acked_by] };
}

/** What `publish` did. */
export interface PublishResult {
  notification: NotifySub;
  /** True when the id was already seen: nothing was sent and `notification` is the earlier one. */
  duplicate: boolean;
}

/** Queue actions of `/v1/alerts/queue/{action}` that go straight to the browser sources. */
export type QueueAction = QueueControl["action"];

/**
 * The realtime gateway, the socket side of the server: delivers alerts (keeps the per-user alert log,
 * sends `notifysub` to the user's rooms, replays what a browser source has not acknowledged when it
 * joins, de-duplicates by notification id) and relays queue control.
 */
export class RealtimeGateway {
  readonly #seen = new Map<number, Set<string>>();
  readonly #revocations = new RecentRevocations();
  /**
   * Acknowledgements that reached this node before its copy of the alert log held the alert (the
   * alert was published on another node): `<user id>:<notification id>` to the sources and when.
   * Applied to the log when the alert arrives; until then replays here skip them.
   */
  readonly #heldAcks = new Map<string, { sources: Set<number>; at: number }>();
  #io: OvationIo | null = null;
  #clustered = false;

  /**
   * @param shared the de-duplication memory shared between nodes (Redis), or null on one node.
   * @param acknowledgements the browser sources' acknowledgements shared between nodes (Redis), or null on one node.
   */
  constructor(
    private readonly repos: Repositories,
    private readonly logger: Logger,
    private readonly shared: SharedNotificationIds | null = null,
    private readonly acknowledgements: SharedAcknowledgements | null = null,
  ) {
    for (const { userId, id } of repos.alertLog.realNotificationIds()) this.#remember(userId, id);
    // Alerts logged by other nodes on the same database are duplicates here too, and take the
    // acknowledgements that reached this node before them.
    repos.store.onRemoteChange(({ alertLog }) => {
      const arrived: Array<{ userId: number; id: string }> = [];
      for (const { userId, event } of alertLog) {
        if (event.t !== "add") continue;
        if (!event.e.test) this.#remember(userId, event.e.notification_id);
        arrived.push({ userId, id: event.e.notification_id });
      }
      if (this.#heldAcks.size > 0 && arrived.length > 0) setImmediate(() => this.#applyHeldAcks(arrived));
      this.#relayRemoteLog(alertLog);
    });
  }

  /**
   * Tells this node's dashboard sockets what another node logged or had acknowledged. With a shared
   * store each node tells its own sockets of every change to the log as it applies it (see
   * `#logUpdate`), so these updates cost no emit through Redis.
   */
  #relayRemoteLog(alertLog: RemoteStoreChange["alertLog"]): void {
    if (!this.#io) return;
    for (const { userId, event } of alertLog) {
      if (event.t === "add") this.#logUpdate(userId, () => ({ kind: "logged", entry: presentLogEntry(event.e) }));
      if (event.t !== "ack") continue;
      const entry = this.repos.alertLog.findBySeq(userId, event.seq);
      if (entry) this.#logUpdate(userId, { kind: "acknowledged", notification_id: entry.notification_id, browser_source_id: event.bs });
    }
  }

  #holdAck(userId: number, browserSourceId: number, notificationId: string): void {
    const key = `${userId}:${notificationId}`;
    const held = this.#heldAcks.get(key) ?? { sources: new Set<number>(), at: Date.now() };
    held.sources.add(browserSourceId);
    this.#heldAcks.set(key, held);
    const oldest = Date.now() - BROWSER_SOURCE_BACKLOG_MAX_AGE_MS;
    for (const [heldKey, entry] of this.#heldAcks) {
      if (this.#heldAcks.size <= HELD_ACKNOWLEDGEMENTS_MAX && entry.at >= oldest) break;
      this.#heldAcks.delete(heldKey);
    }
  }

  #isHeldAck(userId: number, browserSourceId: number, notificationId: string): boolean {
    return this.#heldAcks.get(`${userId}:${notificationId}`)?.sources.has(browserSourceId) === true;
  }

  #applyHeldAcks(arrived: ReadonlyArray<{ userId: number; id: string }>): void {
    for (const { userId, id } of arrived) {
      const held = this.#heldAcks.get(`${userId}:${id}`);
      if (!held) continue;
      this.#heldAcks.delete(`${userId}:${id}`);
      for (const browserSourceId of held.sources) this.#recordAck(userId, browserSourceId, id);
    }
  }

  #recordAck(userId: number, browserSourceId: number, notificationId: string): boolean {
    if (!this.repos.alertLog.acknowledge(userId, browserSourceId, notificationId)) return false;
    this.#logUpdate(userId, { kind: "acknowledged", notification_id: notificationId, browser_source_id: browserSourceId });
    return true;
  }

  /**
   * Connects the hub to the socket.io server it emits on. `clustered`: the server has the Redis
   * adapter, so disconnect orders are passed on to the other nodes.
   */
  attach(io: OvationIo, clustered = false): void {
    this.#io = io;
    this.#clustered = clustered;
    if (!clustered) return;
    io.on("disconnect-user", (userId) => this.#disconnectUserHere(userId));
    io.on("disconnect-browser-source", (browserSourceId) => this.#disconnectBrowserSourceHere(browserSourceId));
    io.on("disconnect-credential", (revoked) => this.#disconnectCredentialHere(revoked));
  }

  #remember(userId: number, id: string): void {
    let seen = this.#seen.get(userId);
    if (!seen) {
      seen = new Set();
      this.#seen.set(userId, seen);
    }
    seen.add(id);
    if (seen.size > DEDUP_MEMORY_PER_USER) {
      const oldest = seen.values().next();
      if (!oldest.done) seen.delete(oldest.value);
    }
  }

  #rooms(userId: number): string[] {
    const user = this.repos.users.get(userId);
    return user ? userRooms(this.repos, user) : [];
  }

  /**
   * Logs and emits an alert (unless its id is a known duplicate of a real alert: seen by this node,
   * or, with Redis, claimed by any node). Throws 422 `OVATION_ERR_ALERTS_DATA_TOO_LARGE` when
   * `data` is larger than `USER_CAPS.alertDataBytes`.
   */
  async publish(input: AlertInput): Promise<PublishResult> {
    const bytes = jsonBytes(input.event);
    if (bytes > USER_CAPS.alertDataBytes) {
      const message = `The data field must be at most ${USER_CAPS.alertDataBytes} bytes of JSON (alertDataBytes); it is ${bytes}.`;
      throw new ApiError("OVATION_ERR_ALERTS_DATA_TOO_LARGE", { message, errors: { data: [message] } });
    }
    const id = input.notificationId ?? randomUUID();
    const deduplicated = !input.test && input.notificationId !== undefined;
    if (deduplicated && (this.#seen.get(input.userId)?.has(id) || (this.shared !== null && !(await this.shared.claim(input.userId, id))))) {
      this.#remember(input.userId, id);
      const earlier = this.repos.alertLog.find(input.userId, id);
      if (earlier) return { notification: current(earlier), duplicate: true };
      return { notification: this.#build(input, id), duplicate: true };
    }
    const notification = this.#build(input, id);
    if (!input.test) this.#remember(input.userId, id);
    const entry = this.repos.alertLog.append(input.userId, notification, input.test);
    this.#io?.to(this.#rooms(input.userId)).emit("notifysub", notification);
    this.#logUpdate(input.userId, () => ({ kind: "logged", entry: presentLogEntry(entry, notification) }));
    return { notification, duplicate: false };
  }

  #build(input: AlertInput, id: string): NotifySub {
    // `ovation` is built as one literal (same keys, same order as spreading the optional parts):
    // the alert log keeps this object for its 500 newest alerts, so each one outlives several
    // young-generation GCs and is copied by them; spreads left temporaries and a larger object.
    const ovation: NotifySub["ovation"] = NON_ALERT_TYPES.includes(input.type)
      ? { template: input.template, test: input.test }
      : { random: randomInt(1, 101), template: input.template, test: input.test };
    if (input.platformData !== undefined) ovation.platform_data = input.platformData;
    if (input.simulated === true) ovation.simulated = true;
    return {
      subscription: { type: input.type, version: "1", condition: { platform: input.platform, platform_id: input.platformId } },
      notification: { id, created_at: timestamp() },
      event: input.event,
      ovation,
    };
  }

  /**
   * Called when a browser-source socket joins one of its user's rooms: sends the queue state and
   * every alert this source has not acknowledged, once per socket, oldest first, from the time the
   * source first joined (so a source that never connected starts with no backlog) and at most
   * {@link BROWSER_SOURCE_BACKLOG_MAX_AGE_MS} old. Runs synchronously right after the join, so no
   * live alert can slip in between or arrive twice.
   */
  replayTo(socket: OvationSocket, now = Date.now()): void {
    const identity = socket.data.identity;
    if (identity.kind !== "browser-source" || socket.data.replayed) return;
    socket.data.replayed = true;
    const source = this.repos.browserSources.get(identity.browserSourceId);
    if (!source || source.browser_source_type !== "alerts") return;
    if (this.repos.queueState.isSourcePaused(identity.userId, source.id)) socket.emit("queue-control", { action: "pause" });
    const since = this.repos.browserSourceJoins.firstJoined(identity.userId, source.id);
    if (since === undefined) this.repos.browserSourceJoins.setFirstJoined(identity.userId, source.id, now);
    const from = since === undefined ? now : Math.max(since, now - BROWSER_SOURCE_BACKLOG_MAX_AGE_MS);
    const pending = this.repos.alertLog
      .unacknowledged(identity.userId, source.id, from)
      .filter((entry) => !this.#isHeldAck(identity.userId, source.id, entry.notification_id));
    const send = (entries: readonly AlertLogEntry[]): void => {
      for (const entry of entries) socket.emit("notifysub", current(entry));
      if (entries.length > 0) this.logger.debug({ browserSourceId: source.id, count: entries.length }, "replayed unacknowledged alerts");
    };
    if (this.acknowledgements === null || pending.length === 0) {
      send(pending);
      return;
    }
    // With several nodes, an acknowledgement may have reached another node whose log did not hold
    // the alert yet: what any node recorded is skipped. Alerts logged from here on arrive live.
    void this.acknowledgements.acknowledged(identity.userId, source.id, pending.map((entry) => entry.notification_id)).then((acked) => {
      if (socket.connected) send(pending.filter((entry) => !acked.has(entry.notification_id)));
    });
  }

  /**
   * Records a browser source's acknowledgement: in the alert log, and with several nodes also in
   * Redis for every node's replays. One that arrives before this node's log holds the alert (it was
   * published on another node) is held and applied when the alert arrives, never dropped.
   */
  acknowledge(socket: OvationSocket, notificationId: unknown): void {
    const identity = socket.data.identity;
    if (identity.kind !== "browser-source" || typeof notificationId !== "string" || notificationId.length > 128) return;
    const { userId, browserSourceId } = identity;
    if (!this.#recordAck(userId, browserSourceId, notificationId) && this.repos.alertLog.find(userId, notificationId) === undefined) {
      this.#holdAck(userId, browserSourceId, notificationId);
    }
    void this.acknowledgements?.record(userId, browserSourceId, notificationId);
  }

  /** The user's queue state: the whole queue and the browser sources paused one by one. */
  queueState(userId: number): QueueStateView {
    return { paused: this.repos.queueState.isPaused(userId), paused_sources: this.repos.queueState.pausedSources(userId) };
  }

  /**
   * Sends a queue action to every browser source of the user, or only to `browserSourceId`, and
   * remembers pause/clear. Clearing one source marks what it has not shown as acknowledged by it
   * (it is never replayed to that source); clearing all marks the log cleared. Returns how many
   * alerts a clear dropped (0 otherwise).
   */
  control(userId: number, action: QueueAction, browserSourceId: number | null = null): number {
    let cleared = 0;
    if (browserSourceId === null) {
      if (action === "pause" || action === "resume") this.repos.queueState.setPaused(userId, action === "pause");
      if (action === "clear") cleared = this.repos.alertLog.clear(userId);
      this.#io?.to(this.#rooms(userId)).emit("queue-control", { action });
    } else {
      if (action === "pause" || action === "resume") this.repos.queueState.setSourcePaused(userId, browserSourceId, action === "pause");
      if (action === "clear") {
        for (const entry of this.repos.alertLog.unacknowledged(userId, browserSourceId, 0)) {
          if (this.repos.alertLog.acknowledge(userId, browserSourceId, entry.notification_id)) cleared++;
        }
      }
      this.#io?.to(browserSourceRoom(browserSourceId)).emit("queue-control", { action });
    }
    this.#logUpdate(userId, { kind: "queue", action, browser_source_id: browserSourceId, state: this.queueState(userId) });
    return cleared;
  }

  /**
   * Sends a logged alert again, marked `ovation.replay: true`, to every browser source of the user
   * or only to `browserSourceId`; throws when it is not in the log.
   */
  replay(userId: number, notificationId: string, browserSourceId: number | null = null): NotifySub {
    const entry: AlertLogEntry | undefined = this.repos.alertLog.find(userId, notificationId);
    if (!entry) {
      throw new ApiError("OVATION_ERR_ALERTS_NOTIFICATION_NOT_FOUND", {
        message: `No alert with notification id ${notificationId} in your alert log.`,
        errors: { notification_id: [`No alert with notification id ${notificationId} in your alert log.`] },
      });
    }
    const logged = current(entry);
    const notification: NotifySub = { ...logged, ovation: { ...logged.ovation, replay: true } };
    this.#io?.to(browserSourceId === null ? this.#rooms(userId) : [browserSourceRoom(browserSourceId)]).emit("notifysub", notification);
    this.#logUpdate(userId, { kind: "replayed", notification_id: notificationId, browser_source_id: browserSourceId });
    return notification;
  }

  /**
   * Tells the user's sockets in a private room, except browser sources, that the log or queue
   * changed. With a store several nodes share, an alert logged or acknowledged is told to this
   * node's sockets only: every node tells its own as the change reaches its copy of the log
   * (`#relayRemoteLog`). Through the Redis adapter these were two more stream entries per alert
   * (`logged` on the node that took the alert, `acknowledged` on the one the source is on), each
   * written by one node and read and decoded by all of them.
   */
  /**
   * `update` as a function: a `logged` update, made only when it is sent (the entry's notification
   * is parsed from its text for it).
   */
  #logUpdate(userId: number, update: AlertLogUpdate | (() => Extract<AlertLogUpdate, { kind: "logged" }>)): void {
    if (!this.#io) return;
    const rooms = this.#rooms(userId);
    if (rooms.length === 0) return;
    const kind = typeof update === "function" ? "logged" : update.kind;
    const local = this.repos.store.shared && (kind === "logged" || kind === "acknowledged");
    // Told to this node's sockets only: nothing to do (not even encoding the packet, which the
    // adapter does before it looks for sockets) when none of them but browser sources is in the rooms.
    if (local && !this.#hasLocalListener(rooms)) return;
    (local ? this.#io.local : this.#io).to(rooms).except(BROWSER_SOURCES_ROOM).emit("alert-log", typeof update === "function" ? update() : update);
  }

  /** Whether a socket of this node other than a browser source is in one of `rooms` (main namespace). */
  #hasLocalListener(rooms: readonly string[]): boolean {
    const joined = this.#io?.sockets.adapter.rooms;
    if (!joined) return false;
    const sources = joined.get(BROWSER_SOURCES_ROOM);
    for (const room of rooms) for (const id of joined.get(room) ?? []) if (!sources?.has(id)) return true;
    return false;
  }

  /** Tells the user's browser sources to reload their configuration. */
  browserSourceUpdated(userId: number, update: BrowserSourceUpdated): void {
    this.#io?.to(this.#rooms(userId)).emit("browser-source-updated", update);
  }

  /** Tells the user's browser sources that a goal bar moved or changed (the `goalbars` source redraws it). */
  goalBarUpdated(userId: number, goal: GoalBarView): void {
    this.#io?.to(this.#rooms(userId)).emit("goal-bar-updated", goal);
  }

  /** Tells the user's browser sources the overlay switches (`!visuals`, `!effects`, `!sounds`). */
  overlaySettings(userId: number, settings: OverlaySettings): void {
    this.#io?.to(this.#rooms(userId)).emit("overlay-settings", settings);
  }

  /** Tells the user's browser sources about a bot module's change (queue, poll...). */
  botModuleEvent(userId: number, event: string, payload: unknown): void {
    this.#io?.to(this.#rooms(userId)).emit("bot-module", { event, payload });
  }

  /** Tells the user's alerts sources to read an approved message now (docs/tts.md). */
  speechApproved(userId: number, notificationId: string): void {
    this.#io?.to(this.#rooms(userId)).emit("tts-speak", { notification_id: notificationId });
  }

  /** "Skip speech": the user's alerts sources stop the message being read. */
  skipSpeech(userId: number): void {
    this.#io?.to(this.#rooms(userId)).emit("tts-control", { action: "skip" });
  }

  /** Disconnects every socket of a user on every namespace (bearer, browser-source, session, console), on every node. */
  disconnectUser(userId: number): void {
    this.#disconnectUserHere(userId);
    if (this.#clustered) this.#io?.serverSideEmit("disconnect-user", userId);
  }

  #disconnectUserHere(userId: number): void {
    if (!this.#io) return;
    for (const namespace of this.#io._nsps.values()) {
      for (const socket of namespace.sockets.values()) {
        const data = socket.data as { identity?: { userId?: number }; userId?: number } | undefined;
        if (data?.identity?.userId === userId || data?.userId === userId) refuseAndDisconnect(namespace, socket, "This account was deleted.");
      }
    }
  }

  /**
   * Disconnects every socket opened with a revoked credential (a personal access token, the chat
   * session token, an OAuth access token or every token of a revoked grant), on every namespace and,
   * through the Redis adapter, on every node. The revocation is also remembered for
   * REVOCATION_MEMORY_MS, so a handshake checked just before it cannot keep its socket.
   */
  disconnectCredential(revoked: RevokedCredential): void {
    this.#disconnectCredentialHere(revoked);
    if (this.#clustered) this.#io?.serverSideEmit("disconnect-credential", revoked);
  }

  #disconnectCredentialHere(revoked: RevokedCredential): void {
    this.#revocations.add(revoked);
    if (!this.#io) return;
    let closed = 0;
    for (const namespace of this.#io._nsps.values()) {
      for (const socket of namespace.sockets.values()) {
        const credential = credentialOfSocket(socket.data);
        if (credential === undefined || !isRevokedBy(credential, revoked)) continue;
        refuseAndDisconnect(namespace, socket, REVOKED_MESSAGE);
        closed++;
      }
    }
    if (closed > 0) this.logger.info({ revoked, sockets: closed }, "token revoked: its sockets closed");
  }

  /**
   * Closes this node's sockets (every namespace) opened with a token of verifier `kind` that
   * `stillValid` no longer accepts: the tokens of a remote identity host, whose revocations this
   * server learns only by asking. A check that fails (the host unreachable) keeps the socket.
   * Resolves to the number of sockets closed.
   */
  async closeInvalidSockets(kind: string, stillValid: (token: string) => Promise<boolean>): Promise<number> {
    if (!this.#io) return 0;
    let closed = 0;
    for (const namespace of this.#io._nsps.values()) {
      for (const socket of [...namespace.sockets.values()]) {
        const credential = credentialOfSocket(socket.data);
        if (credential?.kind !== kind) continue;
        const token = handshakeBearer(socket.handshake);
        let valid = true;
        try {
          valid = token !== null && (await stillValid(token));
        } catch (err) {
          this.logger.warn({ err }, "a socket's token could not be re-checked; the socket stays open");
        }
        if (valid || !socket.connected) continue;
        refuseAndDisconnect(namespace, socket, REVOKED_MESSAGE);
        closed++;
      }
    }
    if (closed > 0) this.logger.info({ kind, sockets: closed }, "tokens no longer valid at the identity host: their sockets closed");
    return closed;
  }

  /** Whether `credential` was revoked in the last moments (on this node or, announced through Redis, on another). */
  isRevoked(credential: SocketCredential): boolean {
    return this.#revocations.has(credential);
  }

  /** Closes a socket just connected with a credential revoked in the last moments; true when it did. */
  refuseIfRevoked(socket: ClosableSocket, credential: SocketCredential): boolean {
    if (!this.#revocations.has(credential)) return false;
    refuseAndDisconnect(socket.nsp as Pick<OvationIo["sockets"], "local">, socket, REVOKED_MESSAGE);
    return true;
  }

  /** Disconnects the sockets of a browser source whose token was revoked, on every node. */
  disconnectBrowserSource(browserSourceId: number): void {
    this.#disconnectBrowserSourceHere(browserSourceId);
    if (this.#clustered) this.#io?.serverSideEmit("disconnect-browser-source", browserSourceId);
  }

  #disconnectBrowserSourceHere(browserSourceId: number): void {
    if (!this.#io) return;
    for (const socket of this.#io.sockets.sockets.values()) {
      const identity = socket.data.identity;
      if (identity?.kind === "browser-source" && identity.browserSourceId === browserSourceId) {
        refuseAndDisconnect(this.#io.sockets, socket, "This browser source address was regenerated.");
      }
    }
  }
}
