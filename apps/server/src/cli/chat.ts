import { constants } from "node:os";
import { parseArgs } from "node:util";
import { CONSOLE_BADGES, runConsoleChat } from "@ovation/plugin-console";
import { definedKeys } from "@ovation/core/contracts";
import type { ServerConfig } from "../config.js";
import { CHAT_TOKEN_LIFETIME_MS } from "../admin/admin-protocol.js";
import { callRunningServer } from "./admin-client.js";
import { CliError, usageError } from "../cli-error.js";
import { FIRST_USER_NAME } from "../first-user.js";
import type { CliIo } from "./io.js";

/** Where the CLI reaches the server it runs beside: loopback when it listens on every interface. */
function localUrl(config: ServerConfig): string {
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

/**
 * `ovation chat [--as NAME] [--badge moderator] [--token T] [--user U] [--url URL]`: an interactive
 * chat console on the running server. Typed lines are chat messages of your own channel; the bot's
 * answers print back. The token comes from --token, else OVATION_TOKEN, else the running server's
 * admin socket: a `chatbot:read` token named "ovation chat" for --user (default the first user)
 * that lives 6 hours, replaces that user's earlier chat token, and is revoked when the session ends
 * (end of input, Ctrl+C, SIGINT/SIGTERM/SIGHUP).
 */
export async function runChat(
  args: string[],
  config: ServerConfig,
  io: CliIo,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  let values: { as?: string; badge?: string[]; token?: string; user?: string; url?: string };
  try {
    values = parseArgs({
      args,
      options: {
        as: { type: "string" },
        badge: { type: "string", multiple: true },
        token: { type: "string" },
        user: { type: "string" },
        url: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (values.as !== undefined && !/^[A-Za-z0-9_]{1,25}$/.test(values.as)) throw usageError("chat: --as must be 1-25 letters, digits or _.");
  const badges = values.badge ?? [];
  const unknown = badges.filter((b) => !(CONSOLE_BADGES as readonly string[]).includes(b));
  if (unknown.length > 0) throw usageError(`chat: --badge must be one of ${CONSOLE_BADGES.join(", ")} (got ${unknown.join(", ")}).`);
  let token = values.token ?? env.OVATION_TOKEN;
  let issued: string | null = null;
  if (token === undefined || token === "") {
    try {
      issued = String(await callRunningServer(config.dataDir, { op: "chat.token.issue", user: values.user ?? FIRST_USER_NAME }));
      token = issued;
    } catch (error) {
      if (error instanceof CliError && error.code !== "OVATION_ERR_STORE_LOCKED") throw error;
      throw new CliError(
        "OVATION_ERR_CLI_USAGE",
        `chat: no running Ovation server answered in ${config.dataDir} (start it with \`npm start\`), or pass --token / OVATION_TOKEN.`,
      );
    }
  }
  const endSession = sessionEnd(config.dataDir, issued, io);
  const onSignal = (signal: NodeJS.Signals) => void endSession().finally(() => process.exit(128 + (constants.signals[signal] ?? 0)));
  for (const signal of SESSION_SIGNALS) process.on(signal, onSignal);
  try {
    const status = await runConsoleChat({
      url: values.url ?? localUrl(config),
      auth: { token, ...definedKeys({ as: values.as }), badges },
      input: process.stdin,
      output: process.stdout,
      errors: process.stderr,
    });
    if (status !== 0) io.err("chat: the console closed with an error (see above).");
    return status;
  } finally {
    await endSession();
    for (const signal of SESSION_SIGNALS) process.off(signal, onSignal);
  }
}

/** Signals that end a chat session (the token is revoked before the process exits). */
const SESSION_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Revokes the session's token (once) when chat got it from the server; a failure is only reported. */
function sessionEnd(dataDir: string, issued: string | null, io: CliIo): () => Promise<void> {
  let ending: Promise<void> | null = null;
  return () => {
    if (issued === null) return Promise.resolve();
    ending ??= callRunningServer(dataDir, { op: "chat.token.revoke", token: issued }, 5_000).then(
      () => undefined,
      (error: unknown) => io.err(`chat: could not revoke the session token (${(error as Error).message}); it expires within ${CHAT_TOKEN_LIFETIME_MS / 3_600_000} hours.`),
    );
    return ending;
  };
}
