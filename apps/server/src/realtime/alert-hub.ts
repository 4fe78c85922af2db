import { randomInt, randomUUID } from "node:crypto";
import { NON_ALERT_TYPES } from "@ovation/core";
import type { BrowserSourceUpdated, GoalBarView, NotificationPayload, NotifySub, OverlaySettings, QueueControl } from "@ovation/core";
import type { Logger } from "pino";
import { ApiError } from "../errors.js";
import type { SharedNotificationIds } from "../redis/shared-notification-ids.js";
import type { Repositories } from "../store/repositories.js";
import { upgradeLoggedNotification } from "../store/alert-log.js";
import { timestamp } from "../store/records.js";
import { USER_CAPS, jsonBytes } from "../store/user-caps.js";
import type { AlertLogEntry } from "../store/records.js";
import { userRooms } from "./rooms.js";
import type { OvationIo, OvationSocket } from "./socket-types.js";

/** How many real notification ids per user the de-duplication memory keeps. */
export const DEDUP_MEMORY_PER_USER = 10_000;

/**
 * The oldest unacknowledged alert a reconnecting browser source is sent again: 10 minutes. A source
 * that has never connected gets no backlog at all (docs/security.md, docs/contracts.md).
 */
export const BROWSER_SOURCE_BACKLOG_MAX_AGE_MS = 10 * 60_000;

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

/** A logged notification in the current shape (alerts logged before the payload moved are rewritten). */
function current(entry: AlertLogEntry): NotifySub {
  return upgradeLoggedNotification(entry.notification) ?? entry.notification;
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
 * Delivers alerts: keeps the per-user alert log, sends `notifysub` to the user's rooms, replays
 * what a browser source has not acknowledged when it joins, de-duplicates by notification id and
 * relays queue control.
 */
export class AlertHub {
  readonly #seen = new Map<number, Set<string>>();
  #io: OvationIo | null = null;
  #clustered = false;

  /**
   * @param shared the de-duplication memory shared between nodes (Redis), or null on one node.
   */
  constructor(
    private readonly repos: Repositories,
    private readonly logger: Logger,
    private readonly shared: SharedNotificationIds | null = null,
  ) {
    for (const { userId, id } of repos.alertLog.realNotificationIds()) this.#remember(userId, id);
    // Alerts logged by other nodes on the same database are duplicates here too.
    repos.store.onRemoteChange(({ alertLog }) => {
      for (const { userId, event } of alertLog) if (event.t === "add" && !event.e.test) this.#remember(userId, event.e.notification.notification.id);
    });
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
    this.repos.alertLog.append(input.userId, notification, input.test);
    this.#io?.to(this.#rooms(input.userId)).emit("notifysub", notification);
    return { notification, duplicate: false };
  }

  #build(input: AlertInput, id: string): NotifySub {
    return {
      subscription: { type: input.type, version: "1", condition: { platform: input.platform, platform_id: input.platformId } },
      notification: { id, created_at: timestamp() },
      event: input.event,
      ovation: {
        ...(NON_ALERT_TYPES.includes(input.type) ? {} : { random: randomInt(1, 101) }),
        template: input.template,
        test: input.test,
        ...(input.platformData === undefined ? {} : { platform_data: input.platformData }),
      },
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
    if (this.repos.queueState.isPaused(identity.userId)) socket.emit("queue-control", { action: "pause" });
    const since = this.repos.browserSourceJoins.firstJoined(identity.userId, source.id);
    if (since === undefined) this.repos.browserSourceJoins.setFirstJoined(identity.userId, source.id, now);
    const from = since === undefined ? now : Math.max(since, now - BROWSER_SOURCE_BACKLOG_MAX_AGE_MS);
    const pending = this.repos.alertLog.unacknowledged(identity.userId, source.id, from);
    for (const entry of pending) socket.emit("notifysub", current(entry));
    if (pending.length > 0) this.logger.debug({ browserSourceId: source.id, count: pending.length }, "replayed unacknowledged alerts");
  }

  /** Records a browser source's acknowledgement. */
  acknowledge(socket: OvationSocket, notificationId: unknown): void {
    const identity = socket.data.identity;
    if (identity.kind !== "browser-source" || typeof notificationId !== "string" || notificationId.length > 128) return;
    this.repos.alertLog.acknowledge(identity.userId, identity.browserSourceId, notificationId);
  }

  /** Sends a queue action to every browser source of the user (and remembers pause/clear). */
  control(userId: number, action: QueueAction): void {
    if (action === "pause" || action === "resume") this.repos.queueState.setPaused(userId, action === "pause");
    if (action === "clear") this.repos.alertLog.clear(userId);
    this.#io?.to(this.#rooms(userId)).emit("queue-control", { action });
  }

  /** Sends a logged alert again, marked `ovation.replay: true`; throws when it is not in the log. */
  replay(userId: number, notificationId: string): NotifySub {
    const entry: AlertLogEntry | undefined = this.repos.alertLog.find(userId, notificationId);
    if (!entry) {
      throw new ApiError("OVATION_ERR_ALERTS_NOTIFICATION_NOT_FOUND", {
        message: `No alert with notification id ${notificationId} in your alert log.`,
        errors: { notification_id: [`No alert with notification id ${notificationId} in your alert log.`] },
      });
    }
    const logged = current(entry);
    const notification: NotifySub = { ...logged, ovation: { ...logged.ovation, replay: true } };
    this.#io?.to(this.#rooms(userId)).emit("notifysub", notification);
    return notification;
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
