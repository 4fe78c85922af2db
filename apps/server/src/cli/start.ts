import type { ServerConfig } from "../config.js";
import { startServer } from "../start-server.js";
import type { CliIo } from "./io.js";

/**
 * `ovation start`: {@link startServer} with signals on (SIGINT/SIGTERM close sockets and flush the
 * store), printing the quick start; returns once the server is closed.
 */
export async function runStart(args: string[], config: ServerConfig, io: CliIo, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  if (args.length > 0) {
    io.err(`start takes no arguments (settings come from the environment; see ovation --help)`);
    return 2;
  }
  const server = await startServer({ config, env, signals: true, onQuickStart: (text) => io.out(text) });
  await server.closed;
  return 0;
}
