/**
 * @ovation/plugin-console: the zero-setup chat platform. The plugin runs in the server; the client
 * (`ovation chat`) is an interactive console that talks to it over socket.io.
 */
export { ConsolePlugin, CONSOLE_PLUGIN_VERSION } from "./console-plugin.js";
export type { ConsoleSession } from "./console-plugin.js";
export { consoleChatEvent, consoleFragments } from "./console-event.js";
export type { ConsoleSpeaker } from "./console-event.js";
export { runConsoleChat, formatModeration, formatOutput } from "./console-client.js";
export type { ConsoleChatOptions } from "./console-client.js";
export { CONSOLE_NAMESPACE, CONSOLE_BADGES } from "./protocol.js";
export type {
  ConsoleAuth,
  ConsoleBadge,
  ConsoleLineResult,
  ConsoleModeration,
  ConsoleOutput,
  ConsoleReady,
  ConsoleClientEvents,
  ConsoleServerEvents,
} from "./protocol.js";
export { consoleFactory, default } from "./factory.js";
