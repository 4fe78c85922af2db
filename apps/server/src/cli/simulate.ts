import { parseArgs } from "node:util";
import type { NotifySub } from "@ovation/core";
import { definedKeys } from "@ovation/core/contracts";
import type { ServerConfig } from "../config.js";
import { callRunningServer } from "./admin-client.js";
import { CliError, usageError } from "../cli-error.js";
import type { CliIo } from "./io.js";

/** The platform of `ovation simulate` without `--platform`. */
export const SIMULATE_DEFAULT_PLATFORM = "twitch";

/**
 * `ovation simulate <type...> [--platform P] [--name N] [--user U] [--data JSON]`: sends a catalog
 * event through the running server as its platform plugin would (`follow`, `raid`, `stream online`:
 * the words of the type joined by dots). The first user unless `--user`; prints the notification.
 */
export async function runSimulate(args: string[], config: ServerConfig, io: CliIo): Promise<number> {
  let parsed: { values: { platform?: string; name?: string; user?: string; data?: string }; positionals: string[] };
  try {
    parsed = parseArgs({
      args,
      options: { platform: { type: "string" }, name: { type: "string" }, user: { type: "string" }, data: { type: "string" } },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw usageError(`simulate: ${(error as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) throw usageError("simulate: name the event, for example `ovation simulate follow --platform kick --name Zoe` or `ovation simulate stream online`.");
  let data: Record<string, unknown> | undefined;
  if (values.data !== undefined) {
    let read: unknown;
    try {
      read = JSON.parse(values.data);
    } catch {
      throw usageError(`simulate: --data must be a JSON object (got ${values.data}).`);
    }
    if (read === null || typeof read !== "object" || Array.isArray(read)) throw usageError("simulate: --data must be a JSON object.");
    data = read as Record<string, unknown>;
  }
  const request = {
    op: "simulate" as const,
    type: positionals.join("."),
    platform: values.platform ?? SIMULATE_DEFAULT_PLATFORM,
    ...definedKeys({ user: values.user, name: values.name, data }),
  };
  let notification: NotifySub;
  try {
    notification = (await callRunningServer(config.dataDir, request)) as NotifySub;
  } catch (error) {
    if (error instanceof CliError || !(error instanceof Error) || !("code" in error) || error.code !== "OVATION_ERR_STORE_LOCKED") throw error;
    throw new CliError("OVATION_ERR_CLI_USAGE", `simulate: no running Ovation server answered in ${config.dataDir} (start it with \`npm start\`).`);
  }
  io.out(`Simulated ${notification.subscription.type} on ${notification.subscription.condition.platform} (notification ${notification.notification.id}).`);
  return 0;
}
