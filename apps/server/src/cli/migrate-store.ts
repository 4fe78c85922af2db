import { parseArgs } from "node:util";
import type { ServerConfig } from "../config.js";
import { ApiError } from "../errors.js";
import { FileBackend } from "../store/file-backend.js";
import { PostgresBackend, redactUrl } from "../store/postgres-backend.js";
import { transferStore } from "../store/store-transfer.js";
import type { StoreDigest } from "../store/store-transfer.js";
import { usageError } from "../cli-error.js";
import type { CliIo } from "./io.js";

/** Store kinds `migrate-store` knows; `lowdb` is the embedded store of the data directory. */
const FROM = ["lowdb"] as const;
const TO = ["postgres"] as const;

/**
 * `ovation migrate-store --from lowdb --to postgres [--database-url URL] [--replace]`: copies the
 * data directory's store into PostgreSQL (OVATION_DATABASE_URL unless --database-url), then reads
 * it back and compares counts and checksums. The server must be stopped (the data directory and
 * the database are locked for the copy); start it again with OVATION_DATABASE_URL set.
 */
export async function runMigrateStore(args: string[], config: ServerConfig, io: CliIo): Promise<number> {
  let values: { from?: string; to?: string; "database-url"?: string; replace?: boolean };
  try {
    values = parseArgs({
      args,
      options: { from: { type: "string" }, to: { type: "string" }, "database-url": { type: "string" }, replace: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (!FROM.includes(values.from as (typeof FROM)[number])) throw usageError(`migrate-store: --from must be one of ${FROM.join(", ")}.`);
  if (!TO.includes(values.to as (typeof TO)[number])) throw usageError(`migrate-store: --to must be one of ${TO.join(", ")}.`);
  const url = values["database-url"] ?? config.databaseUrl;
  if (!url) throw usageError("migrate-store: give the target with --database-url or OVATION_DATABASE_URL.");

  let source: FileBackend;
  try {
    source = await FileBackend.open(config.dataDir);
  } catch (error) {
    if (error instanceof ApiError && error.code === "OVATION_ERR_STORE_LOCKED") {
      throw new ApiError("OVATION_ERR_STORE_LOCKED", { message: `${error.message} Stop the server before moving its store.` });
    }
    throw error;
  }
  try {
    if (!source.hasStore()) throw usageError(`migrate-store: ${config.dataDir} (OVATION_DATA_DIR) holds no store to move.`);
    const target = await PostgresBackend.open(url, { mode: "exclusive" });
    try {
      const { source: counted } = await transferStore(source, target, { replace: values.replace === true });
      io.out(report(config.dataDir, redactUrl(url), counted));
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
  return 0;
}

function report(dataDir: string, url: string, d: StoreDigest): string {
  return [
    `moved the store of ${dataDir} to ${url}, verified:`,
    `  documents         ${d.documents} (${d.users} users)`,
    `  alert-log entries ${d.alertLogEntries}`,
    `  documents sha256  ${d.documentsSha256}`,
    `  alert log sha256  ${d.alertLogSha256}`,
    "Start the server with OVATION_DATABASE_URL set to use it; the files in the data directory are no longer read.",
  ].join("\n");
}
