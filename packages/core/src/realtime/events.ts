import type { ChatEvent } from "../chat/event.js";
import type { GoalBar, GoalBarProgress } from "../goals/goal-bar.js";
import type { NotifySub } from "../notifications/notifysub.js";

/** Why a browser source should reload its configuration. */
export interface BrowserSourceUpdated {
  /** The browser source that changed, when one did. */
  browser_source_id: number | null;
  /** The alert set that changed, when one did. */
  alert_set_id: number | null;
  reason: "alert-set-updated" | "alert-set-activated" | "alert-set-deleted" | "browser-source-regenerated" | "browser-source-updated";
}

/** Live queue control sent to every browser source of a user (see `/v1/alerts/queue/...`). */
export type QueueControl =
  | { action: "skip" }
  | { action: "pause" }
  | { action: "resume" }
  | { action: "clear" };

/** One alert of a user's alert log, as `GET /v1/alerts/log` lists it and `alert-log` carries it. */
export interface AlertLogEntryView {
  notification: NotifySub;
  test: boolean;
  /** Cleared alerts are never replayed to a reconnecting browser source. */
  cleared: boolean;
  /** Ids of the browser sources that have shown it. */
  acknowledged_by: number[];
}

/** The queue state of a user: the whole queue, and the browser sources paused one by one. */
export interface QueueStateView {
  paused: boolean;
  paused_sources: number[];
}

/**
 * A change of the alert log or the queue, sent as `alert-log` to the signed-in user's sockets in one
 * of their private rooms (never to browser sources), so a dashboard stays current without polling.
 * `browser_source_id` is null when the action concerned every browser source.
 */
export type AlertLogUpdate =
  | { kind: "logged"; entry: AlertLogEntryView }
  | { kind: "acknowledged"; notification_id: string; browser_source_id: number }
  | { kind: "replayed"; notification_id: string; browser_source_id: number | null }
  | { kind: "queue"; action: QueueControl["action"]; browser_source_id: number | null; state: QueueStateView };

/**
 * A goal bar configuration with its progress, as the API answers and `goal-bar-updated` carries it.
 * `goalBar` is the deprecated spelling of `goal_bar`, sent beside it until removed.
 */
export interface GoalBarView {
  id: number;
  goal_bar: GoalBar;
  /** @deprecated use `goal_bar`. */
  goalBar: GoalBar;
  progress: GoalBarProgress;
  created_at: string;
  updated_at: string;
}

/** The overlay switches of `!visuals`, `!effects` and `!sounds`: browser sources honour them. */
export interface OverlaySettings {
  /** Show alerts and goal bars at all. */
  visuals: boolean;
  /** Play effect alerts. */
  effects: boolean;
  /** Play alert sounds. */
  sounds: boolean;
}

/** An error the server reports on a socket instead of staying silent (for example a refused join). */
export interface SocketErrorPayload {
  code: string;
  message: string;
  room?: string;
  /** The inbound event that was refused or failed. */
  event?: string;
  /** Scopes the token lacks (`OVATION_ERR_REALTIME_MISSING_SCOPE`). */
  missing_scopes?: string[];
}

/** How often a chat socket receives an `ingress-event` heartbeat, in milliseconds (docs/realtime). */
export const CHAT_HEARTBEAT_INTERVAL_MS = 30_000;

/**
 * An `ingress-event`: something the chat ingress reports besides chat. `heartbeat` carries
 * `{timestamp}` (milliseconds) and is sent every {@link CHAT_HEARTBEAT_INTERVAL_MS} to `.chat` rooms.
 */
export interface IngressEvent {
  type: string;
  data: unknown;
}

/** Events the server emits to clients. */
export interface ServerToClientEvents {
  notifysub: (notification: NotifySub) => void;
  "browser-source-updated": (update: BrowserSourceUpdated) => void;
  "queue-control": (control: QueueControl) => void;
  message: (event: ChatEvent) => void;
  /** A message was deleted; `platform` names the room's platform (the server adds it; `channel` is the Ovation channel id). */
  "delete-message": (payload: { id: string; channel: string; platform?: string }) => void;
  /** The whole chat was cleared, or only one user's messages when `user_platform_id` is set (timeout/ban). */
  "clear-chat": (payload: { channel: string; user_platform_id?: string; duration_seconds?: number; platform?: string }) => void;
  "ingress-event": (payload: IngressEvent) => void;
  /** A held read-aloud message was approved in the dashboard: the alerts sources read it (docs/tts.md). */
  "tts-speak": (payload: { notification_id: string }) => void;
  /** "Skip speech" in the dashboard: the alerts sources stop the message being read. */
  "tts-control": (payload: { action: "skip" }) => void;
  /** A goal bar moved or was changed (every browser source of the user; the `goalbars` source of that id redraws). */
  "goal-bar-updated": (goal: GoalBarView) => void;
  /** The overlay switches changed (`!visuals`, `!effects`, `!sounds` or the API). */
  "overlay-settings": (settings: OverlaySettings) => void;
  /** A bot module's change for the browser sources (`queue.updated`, `poll.updated`...: docs/contracts.md). */
  "bot-module": (update: { event: string; payload: unknown }) => void;
  /** The alert log or the queue changed (dashboard sockets in a private room; not browser sources). */
  "alert-log": (update: AlertLogUpdate) => void;
  joined: (payload: { room: string }) => void;
  error: (payload: SocketErrorPayload) => void;
}

/** Events clients emit to the server. */
export interface ClientToServerEvents {
  /** Join a room `<user_uuid>.<platform>.<platform_user_id>[.chat]`. */
  room: (roomId: string) => void;
  /** A browser source acknowledges that it has shown (or dropped) the alert with this notification id. */
  ack: (notificationId: string) => void;
}

/** What the server answers for a line typed in the console (`/console` namespace). */
export type ConsoleLineResult = { accepted: true; id: string } | { accepted: false; message: string };

/** A bot answer shown in the console. */
export interface ConsoleOutput {
  text: string;
  send_as: string;
  reply_to: string | null;
}

/** A moderation action the bot took on the console's channel (auto-moderation, for example). */
export interface ConsoleModeration {
  action: "delete" | "timeout" | "ban";
  /** The deleted message's id (`delete`). */
  message_id: string | null;
  /** Who was timed out or banned. */
  user_platform_id: string | null;
  seconds: number | null;
  reason: string | null;
}

/** Who the console speaks as, told once connected. */
export interface ConsoleReady {
  channel: string;
  as: string;
  badges: string[];
}

/** Events a console client emits on the `/console` namespace. */
export interface ConsoleClientEvents {
  line: (text: string, ack: (result: ConsoleLineResult) => void) => void;
}

/** Events the server emits on the `/console` namespace. */
export interface ConsoleServerEvents {
  ready: (info: ConsoleReady) => void;
  say: (output: ConsoleOutput) => void;
  moderation: (action: ConsoleModeration) => void;
  /** A refused or failed event (bad payload, handler failure), as on the main namespace. */
  error: (payload: SocketErrorPayload) => void;
}
