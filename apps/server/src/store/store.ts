import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { Low } from "lowdb";
import { DataFile } from "lowdb/node";
import type { Logger } from "pino";
import { z } from "zod";
import { ApiError } from "../errors.js";
import { emptyStoreData } from "./records.js";
import type { StoreData } from "./records.js";

/** File name of the store inside the data directory. */
export const STORE_FILE = "ovation.json";
/** Shortest time between the starts of two writes of the store file. */
export const WRITE_INTERVAL_MS = 20;

/** File name of the lock that keeps two servers off one data directory. */
export const LOCK_FILE = "ovation.lock";

const topLevelSchema = z.object({
  schema_version: z.literal(1),
  sequences: z.record(z.string(), z.number()),
  users: z.array(z.unknown()),
  connections: z.array(z.unknown()),
  personal_access_tokens: z.array(z.unknown()),
  browser_sources: z.array(z.unknown()),
  alert_sets: z.array(z.unknown()),
  commands: z.array(z.unknown()),
  alert_log: z.array(z.unknown()),
  queue_state: z.record(z.string(), z.unknown()),
  extensions: z.record(z.string(), z.unknown()),
  meta: z.record(z.string(), z.unknown()),
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Reads the pid of the process holding the data directory, or null when nobody live holds it. */
export function lockHolder(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dataDir, LOCK_FILE), "utf8").trim());
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

function acquireLock(dataDir: string): string {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = lockHolder(dataDir);
      if (holder !== null && holder !== process.pid) {
        throw new ApiError("OVATION_ERR_STORE_LOCKED", {
          message: `The data directory ${dataDir} is in use by another Ovation process (pid ${holder}).`,
        });
      }
      if (holder === process.pid) {
        throw new ApiError("OVATION_ERR_STORE_LOCKED", { message: `The data directory ${dataDir} is already open in this process.` });
      }
      rmSync(path, { force: true });
    }
  }
  throw new ApiError("OVATION_ERR_STORE_LOCKED", { message: `Could not lock the data directory ${dataDir}.` });
}

/**
 * The embedded store: one lowdb JSON file in the data directory, held by one process at a time.
 * Mutations are synchronous on the in-memory document (so they are serialised by construction);
 * the file is written atomically (lowdb/steno: temp file + rename), at most one write started every
 * WRITE_INTERVAL_MS, each covering every change made before it. `update` returns once memory is
 * changed; `persisted()` resolves once that change is on disk.
 */
export class Store {
  readonly #db: Low<StoreData>;
  readonly #lockPath: string;
  readonly #logger: Logger | undefined;
  /** Bumped by every change; a write covers the generation it started with. */
  #generation = 0;
  #writtenGeneration = 0;
  #lastWriteStart = 0;
  #writing: Promise<void> | null = null;
  #waiters: Array<{ generation: number; resolve: () => void; reject: (error: unknown) => void }> = [];
  #closed = false;

  private constructor(db: Low<StoreData>, lockPath: string, logger: Logger | undefined) {
    this.#db = db;
    this.#lockPath = lockPath;
    this.#logger = logger;
  }

  /** Opens (creating if needed) the store of `dataDir` and locks the directory. */
  static async open(dataDir: string, options: { logger?: Logger } = {}): Promise<Store> {
    let lockPath: string;
    try {
      mkdirSync(dataDir, { recursive: true });
      lockPath = acquireLock(dataDir);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new ApiError("OVATION_ERR_STORE_UNUSABLE", {
        message: `The data directory ${dataDir} (OVATION_DATA_DIR) cannot be used: ${reason} (it must be a writable directory).`,
        cause: error,
      });
    }
    try {
      const file = join(dataDir, STORE_FILE);
      const adapter = new DataFile<StoreData>(file, {
        parse: (text) => {
          let raw: unknown;
          try {
            raw = JSON.parse(text);
          } catch (error) {
            throw new ApiError("OVATION_ERR_STORE_CORRUPT", { message: `${file} is not valid JSON.`, cause: error });
          }
          const checked = topLevelSchema.safeParse(raw);
          if (!checked.success) {
            const issue = checked.error.issues[0];
            throw new ApiError("OVATION_ERR_STORE_CORRUPT", {
              message: `${file} is not an Ovation store: ${issue?.path.join(".") || "(root)"} ${issue?.message ?? ""}`.trim(),
            });
          }
          return { ...emptyStoreData(), ...(raw as StoreData) };
        },
        stringify: (data) => JSON.stringify(data),
      });
      const db = new Low<StoreData>(adapter, emptyStoreData());
      await db.read();
      const store = new Store(db, lockPath, options.logger);
      await db.write();
      return store;
    } catch (error) {
      rmSync(lockPath, { force: true });
      throw error;
    }
  }

  /** The in-memory document. Read it freely; change it only inside `update`. */
  get data(): Readonly<StoreData> {
    return this.#db.data;
  }

  /** Runs `fn` on the document, schedules a write and returns `fn`'s result. */
  update<T>(fn: (data: StoreData) => T): T {
    if (this.#closed) throw new Error("store is closed");
    const result = fn(this.#db.data);
    this.#schedule();
    return result;
  }

  /** Next value of a named id sequence (1, 2, 3...). Call inside `update`. */
  static nextId(data: StoreData, sequence: string): number {
    const next = (data.sequences[sequence] ?? 0) + 1;
    data.sequences[sequence] = next;
    return next;
  }

  #schedule(): void {
    this.#generation++;
    if (this.#writing === null) this.#writing = this.#writeLoop();
  }

  /**
   * Writes until the file holds the latest generation. Serialising the document costs CPU, so
   * writes start at most every WRITE_INTERVAL_MS: changes made meanwhile share one write.
   */
  async #writeLoop(): Promise<void> {
    try {
      while (this.#writtenGeneration < this.#generation) {
        const wait = this.#lastWriteStart + WRITE_INTERVAL_MS - Date.now();
        await new Promise((resolve) => (wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve)));
        const generation = this.#generation;
        this.#lastWriteStart = Date.now();
        try {
          await this.#db.write();
        } catch (error) {
          this.#logger?.error({ err: error }, "store write failed");
          const failed = this.#waiters.filter((w) => w.generation <= generation);
          this.#waiters = this.#waiters.filter((w) => w.generation > generation);
          for (const w of failed) w.reject(error);
          this.#writtenGeneration = generation;
          continue;
        }
        this.#writtenGeneration = generation;
        const done = this.#waiters.filter((w) => w.generation <= generation);
        this.#waiters = this.#waiters.filter((w) => w.generation > generation);
        for (const w of done) w.resolve();
      }
    } finally {
      this.#writing = null;
    }
  }

  /** Resolves once every change made so far is written to disk (rejects if that write failed). */
  persisted(): Promise<void> {
    if (this.#writtenGeneration >= this.#generation) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ generation: this.#generation, resolve, reject }));
  }

  /**
   * A typed handle on `extensions[key]`, the place where other modules (identity, plugins) keep
   * their data in the same file. `init` gives the value when the key is absent.
   */
  extension<T>(key: string, init: () => T): { read(): T; update<R>(fn: (value: T) => R): R } {
    return {
      read: () => (this.#db.data.extensions[key] as T | undefined) ?? init(),
      update: <R>(fn: (value: T) => R): R =>
        this.update((data) => {
          const current = (data.extensions[key] as T | undefined) ?? init();
          data.extensions[key] = current;
          return fn(current);
        }),
    };
  }

  /** Flushes pending writes and releases the data directory. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.persisted();
    } finally {
      this.#closed = true;
      rmSync(this.#lockPath, { force: true });
    }
  }
}
