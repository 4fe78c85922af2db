import { z } from "zod";
import { OvationError } from "@ovation/core/contracts";
import { loadConfig } from "../config.js";
import { runHelp } from "./help.js";
import { processIo } from "./io.js";
import type { CliIo } from "./io.js";

// Each command's module is imported when that command runs, so `ovation user create` or
// `ovation chat` does not load the whole server (fastify, the template sandbox, the plugins) first.

/** Runs the `ovation` CLI with `argv` (without node and script) and returns the exit status. */
export async function main(argv: readonly string[], io: CliIo = processIo, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  const [first, second, ...rest] = argv;
  try {
    if (first === undefined || first === "--help" || first === "-h" || first === "help") return runHelp(io);
    const config = loadConfig(env);
    if (first === "start") return await (await import("./start.js")).runStart([second, ...rest].filter((a): a is string => a !== undefined), config, io, env);
    if (first === "plugins") return await (await import("./plugins.js")).runPlugins([second, ...rest].filter((a): a is string => a !== undefined), config, io, env);
    if (first === "user" && second === "create") return await (await import("./user-create.js")).runUserCreate(rest, config, io);
    if (first === "user" && second === "password") return await (await import("./user-password.js")).runUserPassword(rest, config, io);
    if (first === "token" && second === "create") return await (await import("./token-create.js")).runTokenCreate(rest, config, io);
    if (first === "client") return await (await import("./client.js")).runClient([second, ...rest].filter((a): a is string => a !== undefined), config, io);
    if (first === "migrate-store") return await (await import("./migrate-store.js")).runMigrateStore([second, ...rest].filter((a): a is string => a !== undefined), config, io);
    if (first === "simulate") return await (await import("./simulate.js")).runSimulate([second, ...rest].filter((a): a is string => a !== undefined), config, io);
    if (first === "chat") return await (await import("./chat.js")).runChat([second, ...rest].filter((a): a is string => a !== undefined), config, io, env);
    io.err(`error: unknown command "${argv.join(" ")}". Run \`ovation --help\` for usage. (OVATION_ERR_CLI_USAGE)`);
    return 2;
  } catch (error) {
    if (error instanceof z.ZodError) {
      io.err(`error: ${error.issues.map((i) => i.message).join("; ")} (OVATION_ERR_CLI_USAGE)`);
      return 2;
    }
    if (error instanceof OvationError) {
      io.err(`error: ${error.message} (${error.code})`);
      return error.code === "OVATION_ERR_CLI_USAGE" ? 2 : 1;
    }
    io.err(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }
}
