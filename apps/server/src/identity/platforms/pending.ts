import { randomBytes } from "node:crypto";
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../store/private-files.js";
import type { Clock } from "../clock.js";

/**
 * Where the short-lived steps of platform sign-ins and links wait (OAuth `state`, link requests,
 * finished sign-ins waiting for their page): one entry per step, each with its own expiry, so a
 * step costs the same whatever else is pending and nothing an unauthenticated caller does grows a
 * shared document. Keys are hashes of secrets (never the secrets); values are JSON.
 */
export interface PendingEntries {
  /** Stores `value` under `key` for `ttlMs` (replacing an entry of the same key). */
  put(key: string, value: unknown, ttlMs: number): Promise<void>;
  /** The entry, or null when unknown or expired. */
  get(key: string): Promise<unknown>;
  /** Removes and returns the entry (at most one caller gets it), or null when unknown or expired. */
  take(key: string): Promise<unknown>;
}

/** Entries kept in files at most; beyond it the oldest are dropped first (a flood of sign-in starts cannot fill the disk). */
export const DEFAULT_MAX_PENDING_FILES = 10_000;

interface FileEntry {
  expires_at: number;
  value: unknown;
}

const KEY = /^[a-z0-9_.:-]{1,128}$/;

/**
 * Pending entries as one small private file each under `<data dir>/pending-sign-ins/` (mode 0600),
 * written atomically, taken with a rename (so exactly one caller takes an entry), swept when expired,
 * and capped at `maxEntries` files (the oldest go first). For one node; several nodes use Redis.
 */
export class FilePendingEntries implements PendingEntries {
  /** Key -> expiry, in the order the entries were written (oldest first). */
  readonly #index = new Map<string, number>();
  #lastSweep = 0;

  private constructor(
    private readonly dir: string,
    private readonly clock: Clock,
    private readonly maxEntries: number,
  ) {}

  /** Opens (or creates) the directory and indexes the entries a previous run left (expired ones are removed). */
  static async open(dataDir: string, clock: Clock, maxEntries = DEFAULT_MAX_PENDING_FILES): Promise<FilePendingEntries> {
    const dir = join(dataDir, "pending-sign-ins");
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const entries = new FilePendingEntries(dir, clock, maxEntries);
    const now = clock();
    const found: [string, number][] = [];
    for (const name of await readdir(dir)) {
      const path = join(dir, name);
      const key = name.endsWith(".json") ? name.slice(0, -5) : null;
      const entry = key !== null && KEY.test(key) ? await entries.#read(path) : null;
      if (key === null || entry === null || entry.expires_at <= now) await rm(path, { force: true });
      else found.push([key, entry.expires_at]);
    }
    for (const [key, expires] of found.sort((a, b) => a[1] - b[1])) entries.#index.set(key, expires);
    return entries;
  }

  /** How many entries are pending (tests, logs). */
  get size(): number {
    return this.#index.size;
  }

  #path(key: string): string {
    if (!KEY.test(key)) throw new Error(`pending entry key ${JSON.stringify(key)} is not a hash`);
    return join(this.dir, `${key}.json`);
  }

  async #read(path: string): Promise<FileEntry | null> {
    try {
      const parsed = JSON.parse(await readFile(path, "utf8")) as Partial<FileEntry>;
      return typeof parsed.expires_at === "number" ? { expires_at: parsed.expires_at, value: parsed.value } : null;
    } catch {
      return null;
    }
  }

  async put(key: string, value: unknown, ttlMs: number): Promise<void> {
    const path = this.#path(key);
    const now = this.clock();
    const expires = now + ttlMs;
    const temporary = join(this.dir, `.${key}.${randomBytes(6).toString("hex")}.tmp`);
    await writeFile(temporary, JSON.stringify({ expires_at: expires, value } satisfies FileEntry), { mode: PRIVATE_FILE_MODE });
    await rename(temporary, path);
    this.#index.delete(key);
    this.#index.set(key, expires);
    await this.#sweep(now);
  }

  async get(key: string): Promise<unknown> {
    const entry = await this.#read(this.#path(key));
    return entry === null || entry.expires_at <= this.clock() ? null : entry.value;
  }

  async take(key: string): Promise<unknown> {
    const path = this.#path(key);
    const taken = `${path}.${randomBytes(6).toString("hex")}.taken`;
    try {
      await rename(path, taken);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
    this.#index.delete(key);
    const entry = await this.#read(taken);
    await rm(taken, { force: true });
    return entry === null || entry.expires_at <= this.clock() ? null : entry.value;
  }

  /** Drops expired entries (at most once a second) and the oldest beyond the cap. */
  async #sweep(now: number): Promise<void> {
    const doomed: string[] = [];
    if (now - this.#lastSweep >= 1000) {
      this.#lastSweep = now;
      for (const [key, expires] of this.#index) if (expires <= now) doomed.push(key);
    }
    let over = this.#index.size - doomed.length - this.maxEntries;
    for (const key of this.#index.keys()) {
      if (over <= 0) break;
      if (!doomed.includes(key)) {
        doomed.push(key);
        over -= 1;
      }
    }
    for (const key of doomed) {
      this.#index.delete(key);
      await rm(join(this.dir, `${key}.json`), { force: true });
    }
  }
}
