/** The socket.io namespace the console speaks on (served by the Ovation server). */
export const CONSOLE_NAMESPACE = "/console";

/** Badges a console speaker may wear (`--badge`), which the bot runtime turns into permission levels. */
export const CONSOLE_BADGES = ["moderator", "vip", "subscriber", "broadcaster"] as const;
/** One of {@link CONSOLE_BADGES}. */
export type ConsoleBadge = (typeof CONSOLE_BADGES)[number];

/** Handshake `auth` of a console socket. */
export interface ConsoleAuth {
  /** A personal access token (or OAuth access token) of the channel's user. */
  token: string;
  /** Speak as this viewer name instead of the channel owner. */
  as?: string;
  badges?: string[];
}

/** What the server answers for a typed line. */
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

/** Events the console client sends. */
export interface ConsoleClientEvents {
  line: (text: string, ack: (result: ConsoleLineResult) => void) => void;
}

/** Events the server sends to a console client. */
export interface ConsoleServerEvents {
  ready: (info: ConsoleReady) => void;
  say: (output: ConsoleOutput) => void;
  moderation: (action: ConsoleModeration) => void;
}
