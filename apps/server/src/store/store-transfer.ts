import { createHash } from "node:crypto";
import { ApiError } from "../errors.js";
import type { LoadedStore, StoreBackend } from "./backend.js";
import { storedEntry } from "./logged-alert.js";

/** Counts and checksums of a stored installation, the same whatever backend holds it. */
export interface StoreDigest {
  documents: number;
  users: number;
  alertLogEntries: number;
  /** sha256 of every document, keys sorted (canonical JSON: object keys sorted at every level). */
  documentsSha256: string;
  /** sha256 of every alert-log entry, by user then sequence number. */
  alertLogSha256: string;
}

/** JSON with object keys sorted at every level, so equal data gives equal text in any backend. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Counts and checksums `store`. */
export function digest(store: LoadedStore): StoreDigest {
  const documents = createHash("sha256");
  for (const key of [...store.documents.keys()].sort()) documents.update(`${key}\n${canonicalJson(store.documents.get(key))}\n`);
  const log = createHash("sha256");
  let entries = 0;
  for (const userId of [...store.alertLogs.keys()].sort((a, b) => a - b)) {
    for (const entry of store.alertLogs.get(userId) ?? []) {
      log.update(`${userId}\n${canonicalJson(storedEntry(entry))}\n`);
      entries++;
    }
  }
  return {
    documents: store.documents.size,
    users: [...store.documents.keys()].filter((k) => k.startsWith("user:")).length,
    alertLogEntries: entries,
    documentsSha256: documents.digest("hex"),
    alertLogSha256: log.digest("hex"),
  };
}

/**
 * Copies everything `source` holds into `target` and verifies the copy by reading it back:
 * counts and checksums must match. A target that already holds a store is refused unless
 * `replace` is set. Returns both digests.
 */
export async function transferStore(source: StoreBackend, target: StoreBackend, options: { replace?: boolean } = {}): Promise<{ source: StoreDigest; target: StoreDigest }> {
  const existing = await target.load();
  if (existing.documents.size > 0 && options.replace !== true) {
    throw new ApiError("OVATION_ERR_STORE_TARGET_NOT_EMPTY", {
      message: `The target (${target.description}) already holds a store (${existing.documents.size} documents); pass --replace to overwrite it.`,
    });
  }
  const loaded = await source.load();
  const before = digest(loaded);
  await target.replaceAll(loaded);
  const after = digest(await target.load());
  const differing = (Object.keys(before) as Array<keyof StoreDigest>).filter((k) => before[k] !== after[k]);
  if (differing.length > 0) {
    throw new ApiError("OVATION_ERR_STORE_VERIFY_FAILED", {
      message: `The copy in ${target.description} differs from ${source.description} in: ${differing.map((k) => `${k} (${before[k]} vs ${after[k]})`).join(", ")}.`,
    });
  }
  return { source: before, target: after };
}
