import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { ApiError } from "../errors.js";
import { securePrivateDir } from "./private-files.js";

/** File name of the lock that keeps two servers off one data directory. */
export const LOCK_FILE = "ovation.lock";

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

/** Takes the data directory for this process (a stale lock of a dead process is taken over); returns the lock's path. */
export function acquireLock(dataDir: string): string {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
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
 * Creates `dataDir` (0700) when missing, tightens the modes of it and everything in it (files 0600,
 * directories 0700: a directory written by an older version is fixed at start, and the paths changed
 * are logged) and locks it for this process; returns the lock's path.
 * Errors name the directory: OVATION_ERR_STORE_LOCKED, or OVATION_ERR_STORE_UNUSABLE with the reason.
 */
export function lockDataDir(dataDir: string, logger?: Logger): string {
  try {
    const fixed = securePrivateDir(dataDir);
    if (fixed.length > 0) logger?.warn({ paths: fixed }, "data directory permissions tightened (files 0600, directories 0700)");
    return acquireLock(dataDir);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ApiError("OVATION_ERR_STORE_UNUSABLE", {
      message: `The data directory ${dataDir} (OVATION_DATA_DIR) cannot be used: ${reason} (it must be a writable directory).`,
      cause: error,
    });
  }
}
