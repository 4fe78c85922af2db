import { z } from "zod";
import { OvationError } from "@ovation/core";
import { loadConfig } from "../config.js";
import { runChat } from "./chat.js";
import { runClient } from "./client.js";
import { runHelp } from "./help.js";
import { runMigrateStore } from "./migrate-store.js";
import { processIo } from "./io.js";
import type { CliIo } from "./io.js";
import { runPlugins } from "./plugins.js";
import { runSimulate } from "./simulate.js";
import { runStart } from "./start.js";
import { runTokenCreate } from "./token-create.js";
import { runUserCreate } from "./user-create.js";
import { runUserPassword } from "./user-password.js";

/** Runs the `ovation` CLI with `argv` (without node and script) and returns the exit status. */
export async function main(argv: readonly string[], io: CliIo = processIo, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  const [first, second, ...rest] = argv;
  try {
    if (first === undefined || first === "--help" || first === "-h" || first === "help") return runHelp(io);
    const config = loadConfig(env);
    if (first === "start") return await runStart([second, ...rest].filter((a): a is string => a !== undefined), config, io, env);
    if (first === "plugins") return await runPlugins([second, ...rest].filter((a): a is string => a !== undefined), config, io, env);
    if (first === "user" && second === "create") return await runUserCreate(rest, config, io);
    if (first === "user" && second === "password") return await runUserPassword(rest, config, io);
    if (first === "token" && second === "create") return await runTokenCreate(rest, config, io);
    if (first === "client") return await runClient([second, ...rest].filter((a): a is string => a !== undefined), config, io);
    if (first === "migrate-store") return await runMigrateStore([second, ...rest].filter((a): a is string => a !== undefined), config, io);
    if (first === "simulate") return await runSimulate([second, ...rest].filter((a): a is string => a !== undefined), config, io);
    if (first === "chat") return await runChat([second, ...rest].filter((a): a is string => a !== undefined), config, io, env);
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
