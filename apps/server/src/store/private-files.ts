import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Adapter } from "lowdb";

/** Mode of every file in the data directory: owner read/write only (signing secrets, tokens). */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode of the data directory and every directory in it. */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates `dir` (mode 0700) if needed and fixes the modes of it and everything under it: files
 * 0600, directories 0700 (symbolic links are left alone). Returns the paths it changed, for a log
 * line. Runs when a store opens, so a data directory written by an older version is fixed at start.
 */
export function securePrivateDir(dir: string): string[] {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const changed: string[] = [];
  const fix = (path: string): void => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((stat.mode & 0o777) !== wanted) {
      chmodSync(path, wanted);
      changed.push(path);
    }
    if (stat.isDirectory()) for (const name of readdirSync(path)) fix(join(path, name));
  };
  fix(dir);
  return changed;
}

/**
 * A lowdb adapter for a JSON document in a private file: written atomically (a fresh temporary file
 * created with mode 0600, then renamed over the target), one write at a time, so the file never
 * exists with wider permissions, not even for a moment.
 */
export class PrivateDataFile<T> implements Adapter<T> {
  #queue: Promise<void> = Promise.resolve();
  #counter = 0;

  constructor(
    private readonly path: string,
    private readonly format: { parse: (text: string) => T; stringify: (data: T) => string },
  ) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
    return this.format.parse(text);
  }

  write(data: T): Promise<void> {
    const text = this.format.stringify(data);
    const next = this.#queue.then(async () => {
      const temp = `${this.path}.${process.pid}.${++this.#counter}.tmp`;
      try {
        await writeFile(temp, text, { encoding: "utf8", mode: PRIVATE_FILE_MODE, flag: "wx" });
        await rename(temp, this.path);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
