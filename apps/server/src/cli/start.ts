import { buildApp } from "../app.js";
import type { ServerConfig } from "../config.js";
import { startAdminSocket, stopAdminSocket } from "../admin/admin-socket.js";
import { bootstrap } from "./first-run.js";
import type { CliIo } from "./io.js";
import { quickStartText } from "./quick-start.js";

/**
 * `ovation start`: builds the app, runs the first-run bootstrap, listens, opens the admin socket,
 * prints the quick start, and on SIGINT/SIGTERM closes sockets and flushes the store before exiting.
 */
export async function runStart(args: string[], config: ServerConfig, io: CliIo): Promise<number> {
  if (args.length > 0) {
    io.err(`start takes no arguments (settings come from the environment; see ovation --help)`);
    return 2;
  }
  const app = await buildApp({ config });
  let admin = null;
  try {
    const result = bootstrap(app.ovation.repos);
    app.ovation.commands.reload(result.user.id);
    await app.ovation.repos.store.persisted();
    await app.listen({ port: config.port, host: config.host });
    admin = await startAdminSocket(config.dataDir, app.ovation.repos, app.ovation.logger);
    if (result.created.length > 0) app.log.info({ created: result.created }, "first run: created the quick-start data");
    io.out(quickStartText(config, result));
  } catch (error) {
    await app.close();
    throw error;
  }

  const adminServer = admin;
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, "shutting down");
      void stopAdminSocket(adminServer, config.dataDir)
        .then(() => app.close())
        .finally(resolve);
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
  });
  return 0;
}
