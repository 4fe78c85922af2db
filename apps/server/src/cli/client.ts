import { parseArgs } from "node:util";
import type { ServerConfig } from "../config.js";
import { ClientRegistry, IdentityError } from "../identity/index.js";
import { usageError } from "../cli-error.js";
import type { CliIo } from "./io.js";

/**
 * `ovation client create --name N --redirect-uri U [--redirect-uri U2...] [--public]`: registers an
 * OAuth client and prints its id and secret (the secret is shown this once; public clients have
 * none and use PKCE). `ovation client list` prints the registered clients as JSON lines.
 * Works while the server runs: clients live in their own file, which the server re-reads.
 */
export async function runClient(args: string[], config: ServerConfig, io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const registry = new ClientRegistry(config.dataDir);
  if (sub === "list") {
    for (const client of registry.list()) io.out(JSON.stringify(client));
    return 0;
  }
  if (sub !== "create") throw usageError(`client: unknown subcommand "${sub ?? ""}" (use create or list).`);
  let values: { name?: string; "redirect-uri"?: string[]; public?: boolean };
  try {
    values = parseArgs({
      args: rest,
      options: { name: { type: "string" }, "redirect-uri": { type: "string", multiple: true }, public: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (values.name === undefined) throw usageError("client create: --name is required.");
  if (values["redirect-uri"] === undefined) throw usageError("client create: --redirect-uri is required.");
  let created;
  try {
    created = registry.create({ name: values.name, redirect_uris: values["redirect-uri"], public: values.public ?? false });
  } catch (error) {
    if (error instanceof IdentityError) throw usageError(`client create: ${error.message}`);
    throw error;
  }
  io.out(`client_id: ${created.client_id}`);
  io.out(`client_secret: ${created.client_secret ?? "(none: public client, use PKCE S256)"}`);
  return 0;
}
