import { buildApp } from "../app.js";
import type { ServerConfig } from "../config.js";
import { startAdminSocket, stopAdminSocket } from "../admin/admin-socket.js";
import { CliError } from "./cli-error.js";
import { bootstrap } from "./first-run.js";
import type { CliIo } from "./io.js";
import { quickStartText } from "./quick-start.js";

/**
 * `ovation start`: builds the app, listens, runs the first-run bootstrap, opens the admin socket,
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
    await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EADDRINUSE" && code !== "EACCES" && code !== "EADDRNOTAVAIL") throw error;
      const why = { EADDRINUSE: "is already in use", EACCES: "needs privileges this process lacks", EADDRNOTAVAIL: "is not an address of this machine" }[code];
      throw new CliError("OVATION_ERR_CLI_LISTEN_FAILED", `Cannot listen on ${config.host}:${config.port}: the address ${why} (${code}). Choose another PORT or HOST.`, { cause: error });
    });
    // After listen: a start that cannot listen creates nothing (and so loses no quick-start token).
    const result = bootstrap(app.ovation.repos);
    app.ovation.commands.reload(result.user.id);
    await app.ovation.repos.store.persisted();
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
