import { parseArgs } from "node:util";
import { definedKeys } from "@ovation/core/contracts";
import type { ServerConfig } from "../config.js";
import { usageError } from "../cli-error.js";
import type { CliIo } from "./io.js";
import { runStoreOperation } from "./local-store.js";
import { createUser, publicUser } from "../admin/operations.js";

/** `ovation user create --name N [--email E]`: prints the new user as JSON. */
export async function runUserCreate(args: string[], config: ServerConfig, io: CliIo): Promise<number> {
  let values: { name?: string; email?: string };
  try {
    values = parseArgs({ args, options: { name: { type: "string" }, email: { type: "string" } }, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (values.name === undefined) throw usageError("user create: --name is required.");
  const request = { op: "user.create" as const, name: values.name, ...definedKeys({ email: values.email }) };
  const user = await runStoreOperation(config, request, (repos) => publicUser(createUser(repos, request)));
  io.out(JSON.stringify(user, null, 2));
  return 0;
}
