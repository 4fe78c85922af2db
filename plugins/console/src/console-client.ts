import { createInterface } from "node:readline";
import type { Interface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { io as connect } from "socket.io-client";
import type { Socket } from "socket.io-client";
import { CONSOLE_NAMESPACE } from "./protocol.js";
import type { ConsoleAuth, ConsoleClientEvents, ConsoleLineResult, ConsoleModeration, ConsoleOutput, ConsoleServerEvents } from "./protocol.js";

/** Options of {@link runConsoleChat}. */
export interface ConsoleChatOptions {
  /** Base URL of the running Ovation server (for example `http://127.0.0.1:8080`). */
  url: string;
  auth: ConsoleAuth;
  input: Readable;
  /** Where chat is printed. */
  output: Writable;
  /** Where connection errors are printed. */
  errors: Writable;
  /** After the input ends, how long to keep listening for the bot's last answers (default 1500 ms). */
  lingerMs?: number;
  /** How long to wait for the connection (default 10 s). */
  connectTimeoutMs?: number;
}

/** How the console prints a moderation action of the bot. */
export function formatModeration(action: ConsoleModeration): string {
  const reason = action.reason ? ` (${action.reason})` : "";
  switch (action.action) {
    case "delete":
      return `[moderation] message ${action.message_id ?? "?"} deleted${reason}`;
    case "timeout":
      return `[moderation] ${action.user_platform_id ?? "?"} timed out for ${action.seconds ?? "?"} s${reason}`;
    case "ban":
      return `[moderation] ${action.user_platform_id ?? "?"} banned${reason}`;
  }
}

/** How the console prints a bot answer. */
export function formatOutput(output: ConsoleOutput): string {
  switch (output.send_as) {
    case "action":
      return `* bot ${output.text}`;
    case "announce":
      return `[announcement] bot: ${output.text}`;
    case "reply":
      return `bot (reply): ${output.text}`;
    default:
      return `bot: ${output.text}`;
  }
}

/**
 * The interactive chat console: connects to the server's console namespace, sends each typed line
 * as a chat message of the user's channel and prints the bot's answers. Resolves with an exit status
 * (0 when the input ended, 1 when the server could not be reached or refused the token).
 */
export function runConsoleChat(options: ConsoleChatOptions): Promise<number> {
  const write = (stream: Writable, text: string) => void stream.write(`${text}\n`);
  return new Promise<number>((resolve) => {
    const socket: Socket<ConsoleServerEvents, ConsoleClientEvents> = connect(`${options.url.replace(/\/$/, "")}${CONSOLE_NAMESPACE}`, {
      auth: { ...options.auth },
      transports: ["websocket"],
      reconnection: false,
      timeout: options.connectTimeoutMs ?? 10_000,
    });
    let done = false;
    const finish = (status: number) => {
      if (done) return;
      done = true;
      socket.disconnect();
      resolve(status);
    };
    socket.on("connect_error", (error) => {
      write(options.errors, `error: cannot chat with ${options.url}: ${error.message}`);
      finish(1);
    });
    socket.on("disconnect", (reason) => {
      if (done) return;
      write(options.errors, `error: the server closed the console (${reason})`);
      finish(1);
    });
    // On a terminal, readline echoes and keeps a prompt; answers are printed above it.
    const tty = (options.output as Writable & { isTTY?: boolean }).isTTY === true;
    let lines: Interface | null = null;
    socket.on("error", (error) => write(options.errors, `error: ${error.message} (${error.code})`));
    socket.on("say", (output) => {
      if (tty) options.output.write("\r\x1b[2K");
      write(options.output, formatOutput(output));
      if (tty) lines?.prompt(true);
    });
    socket.on("moderation", (action) => {
      if (tty) options.output.write("\r\x1b[2K");
      write(options.output, formatModeration(action));
      if (tty) lines?.prompt(true);
    });
    socket.once("ready", (info) => {
      const badges = info.badges.length > 0 ? ` [${info.badges.join(", ")}]` : "";
      write(options.output, `Chatting in ${info.channel} as ${info.as}${badges}. Type a message (try !hug someone); Ctrl+D quits.`);
      lines = tty
        ? createInterface({ input: options.input, output: options.output, terminal: true, prompt: `${info.as}> ` })
        : createInterface({ input: options.input, terminal: false });
      const pending = new Set<Promise<void>>();
      lines.on("line", (raw) => {
        const text = raw.trim();
        if (text === "") return;
        const sent = new Promise<void>((settle) => {
          socket.timeout(10_000).emit("line", text, (err: Error | null, result?: ConsoleLineResult) => {
            if (err) write(options.errors, "error: the server did not confirm the message");
            else if (result && !result.accepted) write(options.errors, `refused: ${result.message}`);
            if (tty) lines?.prompt(true);
            settle();
          });
        });
        pending.add(sent);
        void sent.finally(() => pending.delete(sent));
      });
      lines.on("close", () => {
        void Promise.allSettled([...pending]).then(() => setTimeout(() => finish(0), options.lingerMs ?? 1500));
      });
      if (tty) lines.prompt();
    });
  });
}
