import { parseArgs } from "node:util";
import { definedKeys } from "@ovation/core/contracts";
import { DEFAULT_CLI_SCOPES } from "../auth/scopes.js";
import type { ServerConfig } from "../config.js";
import { usageError } from "../cli-error.js";
import type { CliIo } from "./io.js";
import { runStoreOperation } from "./local-store.js";
import { createToken } from "../admin/operations.js";

/** `ovation token create --user N [--scopes "..."] [--name L]`: prints only the token. */
export async function runTokenCreate(args: string[], config: ServerConfig, io: CliIo): Promise<number> {
  let values: { user?: string; scopes?: string; name?: string };
  try {
    values = parseArgs({
      args,
      options: { user: { type: "string" }, scopes: { type: "string" }, name: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (values.user === undefined) throw usageError("token create: --user is required.");
  const request = {
    op: "token.create" as const,
    user: values.user,
    scopes: values.scopes ?? DEFAULT_CLI_SCOPES.join(" "),
    ...definedKeys({ name: values.name }),
  };
  const token = await runStoreOperation(config, request, (repos) => createToken(repos, request));
  io.out(String(token));
  return 0;
}
