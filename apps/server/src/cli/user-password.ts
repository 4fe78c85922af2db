import { parseArgs } from "node:util";
import { definedKeys } from "@ovation/core/contracts";
import type { ServerConfig } from "../config.js";
import { hashPassword, passwordProblems } from "../identity/index.js";
import { usageError } from "../cli-error.js";
import type { CliIo } from "./io.js";
import { runStoreOperation } from "./local-store.js";
import { publicUser, setUserPassword } from "../admin/operations.js";

/** The first line of standard input (the password; nothing is echoed or printed). */
export async function readStdinLine(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  let text = "";
  for await (const chunk of stream) {
    text += String(chunk);
    if (text.includes("\n")) break;
  }
  return text.split(/\r?\n/)[0] ?? "";
}

/**
 * `ovation user password --user NAME [--email EMAIL]`: reads the password from standard input,
 * checks it against the password rules, hashes it here (only the hash reaches the server) and sets
 * it, with the email address as the verified sign-in address when given. Prints the user as JSON.
 */
export async function runUserPassword(args: string[], config: ServerConfig, io: CliIo, readPassword: () => Promise<string> = () => readStdinLine()): Promise<number> {
  let values: { user?: string; email?: string };
  try {
    values = parseArgs({ args, options: { user: { type: "string" }, email: { type: "string" } }, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (values.user === undefined) throw usageError("user password: --user is required.");
  const password = await readPassword();
  const problems = passwordProblems(password, { name: values.user, email: values.email ?? null });
  if (problems.length > 0) throw usageError(`user password: ${problems.join(" ")} (the password is read from standard input)`);
  const request = { op: "user.password" as const, user: values.user, password_hash: await hashPassword(password), ...definedKeys({ email: values.email }) };
  const user = await runStoreOperation(config, request, (repos) => publicUser(setUserPassword(repos, request)));
  io.out(JSON.stringify(user, null, 2));
  return 0;
}
