import { chmodSync, existsSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { z } from "zod";
import { ApiError } from "../errors.js";
import { ALERT_LOG_LIMIT_PER_USER } from "./alert-log-events.js";
import type { StoreBackend } from "./backend.js";
import { raiseSequences, split } from "./partitions.js";
import { emptyStoreData } from "./records.js";
import { compactEntry } from "./logged-alert.js";
import type { AlertLogEntry, StoreData, StoredAlertLogEntry } from "./records.js";

/** The single-file store of schema version 1, in the data directory. */
export const LEGACY_STORE_FILE = "ovation.json";
/** What a migrated legacy file is renamed to (kept as a backup, never read again). */
export const LEGACY_BACKUP_FILE = "ovation.json.migrated";

const legacySchema = z.object({
  schema_version: z.literal(1),
  sequences: z.record(z.string(), z.number()),
  users: z.array(z.unknown()),
  connections: z.array(z.unknown()),
  personal_access_tokens: z.array(z.unknown()),
  browser_sources: z.array(z.unknown()),
  alert_sets: z.array(z.unknown()),
  commands: z.array(z.unknown()),
  alert_log: z.array(z.object({ seq: z.number(), user_id: z.number() }).passthrough()),
  queue_state: z.record(z.string(), z.unknown()),
  extensions: z.record(z.string(), z.unknown()),
  meta: z.record(z.string(), z.unknown()),
});

/** Reads a schema-1 store file into the current in-memory shape; a bad file is reported by name. */
export function readLegacyFile(file: string): StoreData {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ApiError("OVATION_ERR_STORE_CORRUPT", { message: `${file} is not valid JSON.`, cause: error });
  }
  const checked = legacySchema.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ApiError("OVATION_ERR_STORE_CORRUPT", {
      message: `${file} is not an Ovation store: ${issue?.path.join(".") || "(root)"} ${issue?.message ?? ""}`.trim(),
    });
  }
  const legacy = raw as Omit<StoreData, "schema_version" | "alert_log"> & { alert_log: StoredAlertLogEntry[] };
  const data: StoreData = { ...emptyStoreData(), ...legacy, schema_version: 2, alert_log: {} };
  for (const entry of [...legacy.alert_log].sort((a, b) => a.seq - b.seq)) (data.alert_log[String(entry.user_id)] ??= []).push(compactLegacyEntry(file, entry));
  for (const entries of Object.values(data.alert_log)) if (entries.length > ALERT_LOG_LIMIT_PER_USER) entries.splice(0, entries.length - ALERT_LOG_LIMIT_PER_USER);
  raiseSequences(data);
  return data;
}

/** The in-memory entry of a schema-1 file's entry; one without a notification id is reported by file name. */
function compactLegacyEntry(file: string, entry: StoredAlertLogEntry): AlertLogEntry {
  try {
    return compactEntry(entry);
  } catch (error) {
    throw new ApiError("OVATION_ERR_STORE_CORRUPT", { message: `${file} is not an Ovation store: ${(error as Error).message}.`, cause: error });
  }
}

/**
 * Moves a schema-1 `ovation.json` into `backend` when the backend holds no store yet, then renames
 * the file to `ovation.json.migrated` (a backup). Interrupted, it is simply done again at the next
 * start: the file is renamed only once the backend holds everything.
 */
export async function migrateLegacyFile(dataDir: string, backend: StoreBackend & { hasStore(): boolean }, logger: Logger | undefined): Promise<void> {
  const file = join(dataDir, LEGACY_STORE_FILE);
  if (!existsSync(file)) return;
  if (!backend.hasStore()) {
    const data = readLegacyFile(file);
    await backend.replaceAll(split(data));
    logger?.info({ file, users: data.users.length }, "migrated the single-file store to per-user documents");
  }
  const backup = join(dataDir, LEGACY_BACKUP_FILE);
  renameSync(file, backup);
  // It holds browser-source tokens and secrets like the store: owner-only, as every store file.
  chmodSync(backup, 0o600);
}
