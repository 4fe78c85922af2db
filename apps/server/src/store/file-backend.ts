import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { appendFile, open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import { ApiError } from "../errors.js";
import { ALERT_LOG_LIMIT_PER_USER, applyAlertLogEvent } from "./alert-log-events.js";
import type { AlertLogEvent } from "./alert-log-events.js";
import type { LoadedStore, StoreBackend, StoreBatch } from "./backend.js";
import { lockDataDir } from "./data-dir-lock.js";
import { migrateLegacyFile } from "./legacy-file.js";
import { compactEvent, storedEventJson } from "./logged-alert.js";
import type { StoredAlertLogEvent } from "./logged-alert.js";
import type { AlertLogEntry } from "./records.js";

/** Directory of the store inside the data directory. */
export const STORE_DIR = "store";
/** Mode of every file the store creates (they hold secrets such as browser-source tokens). */
const FILE_MODE = 0o600;
/** Mode of the store's directories. */
const DIR_MODE = 0o700;
/** An alert log file is rewritten from memory once it holds this many events (bounds its size). */
export const ALERT_LOG_COMPACT_AT = ALERT_LOG_LIMIT_PER_USER * 2;

/** Where each document key lives, relative to the store directory (names are base64url: no path tricks). */
function documentPath(key: string): string {
  if (key === "meta") return "meta.json";
  const colon = key.indexOf(":");
  const kind = key.slice(0, colon);
  const name = key.slice(colon + 1);
  if (kind === "user") return join("users", `${Number(name)}.json`);
  return join(kind, `${Buffer.from(name).toString("base64url")}.json`);
}

function alertLogPath(userId: number): string {
  return join("alerts", `${userId}.jsonl`);
}

/** Writes a file atomically (temporary file in the same directory, then rename), mode 0600. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  const handle = await open(temp, "w", FILE_MODE);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}

function corrupt(file: string, detail: string, cause?: unknown): ApiError {
  return new ApiError("OVATION_ERR_STORE_CORRUPT", { message: `${file} is not an Ovation store file: ${detail}`, cause });
}

/**
 * The embedded store: JSON documents and append-only alert logs (JSON lines) under
 * `<data dir>/store`, held by one process at a time (lock file). A change rewrites only its own
 * documents (a user's, a channel's...) and appends a line to one user's log, so its cost does not
 * depend on what other users hold. A single-file `ovation.json` of earlier versions is migrated at
 * open (and kept, renamed).
 */
export class FileBackend implements StoreBackend {
  readonly description: string;
  readonly #root: string;
  readonly #lockPath: string;
  readonly #logger: Logger | undefined;
  /** Events in each user's log file, to know when to compact it. */
  readonly #logLines = new Map<number, number>();

  private constructor(root: string, lockPath: string, logger: Logger | undefined) {
    this.#root = root;
    this.#lockPath = lockPath;
    this.#logger = logger;
    this.description = `files in ${root}`;
  }

  /** Locks `dataDir`, creates the layout and migrates a legacy `ovation.json`. */
  static async open(dataDir: string, options: { logger?: Logger } = {}): Promise<FileBackend> {
    const lockPath = lockDataDir(dataDir, options.logger);
    try {
      const root = join(dataDir, STORE_DIR);
      for (const sub of ["", "users", "kv", "kvv", "ext", "alerts"]) mkdirSync(join(root, sub), { recursive: true, mode: DIR_MODE });
      const backend = new FileBackend(root, lockPath, options.logger);
      await migrateLegacyFile(dataDir, backend, options.logger);
      return backend;
    } catch (error) {
      rmSync(lockPath, { force: true });
      throw error;
    }
  }

  /** Whether the store directory holds a complete store (its meta document is written last). */
  hasStore(): boolean {
    return existsSync(join(this.#root, documentPath("meta")));
  }

  async load(): Promise<LoadedStore> {
    const { store, logLines, torn } = readStoreDirectory(this.#root);
    for (const [userId, lines] of logLines) this.#logLines.set(userId, lines);
    for (const userId of torn) {
      this.#logger?.warn({ userId }, "dropping an incomplete last line of an alert log (interrupted write)");
      await this.#rewriteAlertLog(userId, store.alertLogs.get(userId) ?? []);
    }
    return store;
  }

  async #rewriteAlertLog(userId: number, entries: readonly AlertLogEntry[]): Promise<void> {
    await writeFileAtomic(join(this.#root, alertLogPath(userId)), serialiseEntries(entries));
    this.#logLines.set(userId, entries.length);
  }

  async write(batch: StoreBatch): Promise<void> {
    // Serialise everything now: the data keeps changing while the files are written.
    const documents = batch.documents.map(({ key, body }) => ({ path: join(this.#root, documentPath(key)), text: body === null ? null : JSON.stringify(body) }));
    const logs = batch.alertLogs.map(({ userId, events, entries }) => {
      const lines = (this.#logLines.get(userId) ?? 0) + events.length;
      const compact = lines > ALERT_LOG_COMPACT_AT;
      this.#logLines.set(userId, compact ? entries.length : lines);
      return { path: join(this.#root, alertLogPath(userId)), compact, text: compact ? serialiseEntries(entries) : events.map((e) => `${storedEventJson(e)}\n`).join("") };
    });
    const meta = documents.findIndex((d) => d.path.endsWith("meta.json"));
    const metaWrite = meta >= 0 ? documents.splice(meta, 1)[0] : undefined;
    await Promise.all([
      ...documents.map((d) => (d.text === null ? rm(d.path, { force: true }) : writeFileAtomic(d.path, d.text))),
      ...logs.map((l) => (l.compact ? writeFileAtomic(l.path, l.text) : appendFile(l.path, l.text, { mode: FILE_MODE }))),
    ]);
    // The meta document last: its presence marks a complete store (see `hasStore`).
    if (metaWrite?.text) await writeFileAtomic(metaWrite.path, metaWrite.text);
  }

  async replaceAll(store: LoadedStore): Promise<void> {
    // Without its meta document the store counts as incomplete until the import ends.
    await rm(join(this.#root, documentPath("meta")), { force: true });
    for (const sub of ["users", "kv", "kvv", "ext", "alerts"]) {
      rmSync(join(this.#root, sub), { recursive: true, force: true });
      mkdirSync(join(this.#root, sub), { mode: DIR_MODE });
    }
    this.#logLines.clear();
    const meta = store.documents.get("meta");
    for (const [key, body] of store.documents) if (key !== "meta") await writeFileAtomic(join(this.#root, documentPath(key)), JSON.stringify(body));
    for (const [userId, entries] of store.alertLogs) await this.#rewriteAlertLog(userId, entries);
    await writeFileAtomic(join(this.#root, documentPath("meta")), JSON.stringify(meta ?? { schema_version: 2, sequences: {}, meta: {} }));
  }

  async close(): Promise<void> {
    rmSync(this.#lockPath, { force: true });
  }
}

/**
 * Reads a store directory without locking or repairing it: every document, every alert log (a
 * torn last line, left by a crash during an append, is skipped and reported in `torn`).
 */
export function readStoreDirectory(root: string): { store: LoadedStore; logLines: Map<number, number>; torn: number[] } {
  const documents = new Map<string, unknown>();
  const readDocument = (key: string) => {
    const file = join(root, documentPath(key));
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    try {
      documents.set(key, JSON.parse(text));
    } catch (error) {
      throw corrupt(file, "not valid JSON", error);
    }
  };
  const names = (sub: string, ext: string) => {
    const dir = join(root, sub);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith(ext) && !f.startsWith("."))
      .map((f) => f.slice(0, -ext.length));
  };
  readDocument("meta");
  for (const id of names("users", ".json")) if (/^\d+$/.test(id)) readDocument(`user:${id}`);
  for (const kind of ["kv", "kvv", "ext"]) for (const name of names(kind, ".json")) readDocument(`${kind}:${Buffer.from(name, "base64url").toString()}`);
  const alertLogs = new Map<number, AlertLogEntry[]>();
  const logLines = new Map<number, number>();
  const torn: number[] = [];
  for (const id of names("alerts", ".jsonl")) {
    if (!/^\d+$/.test(id)) continue;
    const userId = Number(id);
    const file = join(root, alertLogPath(userId));
    const lines = readFileSync(file, "utf8").split("\n");
    if (lines.pop() !== "") torn.push(userId);
    const entries: AlertLogEntry[] = [];
    lines.forEach((line, index) => {
      if (line === "") return;
      let event: AlertLogEvent;
      try {
        event = compactEvent(JSON.parse(line) as StoredAlertLogEvent);
      } catch (error) {
        throw corrupt(file, error instanceof SyntaxError ? `line ${index + 1} is not valid JSON` : `line ${index + 1}: ${(error as Error).message}`, error);
      }
      applyAlertLogEvent(entries, event);
    });
    alertLogs.set(userId, entries);
    logLines.set(userId, lines.length);
  }
  return { store: { documents, alertLogs }, logLines, torn };
}

function serialiseEntries(entries: readonly AlertLogEntry[]): string {
  return entries.map((e) => `${storedEventJson({ t: "add", e })}\n`).join("");
}
