import type { ChatEvent } from "../chat/event.js";
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

/** Events the server emits to clients. */
export interface ServerToClientEvents {
  notifysub: (notification: NotifySub) => void;
  "browser-source-updated": (update: BrowserSourceUpdated) => void;
  "queue-control": (control: QueueControl) => void;
  message: (event: ChatEvent) => void;
  "delete-message": (payload: { id: string; channel: string }) => void;
  /** The whole chat was cleared, or only one user's messages when `user_platform_id` is set (timeout/ban). */
  "clear-chat": (payload: { channel: string; user_platform_id?: string }) => void;
  "ingress-event": (payload: { type: string; data: unknown }) => void;
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
  /** A refused or failed event (bad payload, handler failure), as on the main namespace. */
  error: (payload: SocketErrorPayload) => void;
}
