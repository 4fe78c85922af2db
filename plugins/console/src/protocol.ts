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

// The console's event maps live in core's realtime contracts, beside the main namespace's.
export type { ConsoleClientEvents, ConsoleLineResult, ConsoleModeration, ConsoleOutput, ConsoleReady, ConsoleServerEvents } from "@ovation/core";
