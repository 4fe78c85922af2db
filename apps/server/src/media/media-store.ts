import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import { link, mkdir, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ApiError } from "../errors.js";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../store/private-files.js";

/** How many files and bytes of media one user may keep. */
export interface MediaQuota {
  readonly files: number;
  readonly bytes: number;
}

/** What one user's media take. */
export interface MediaUsage {
  files: number;
  bytes: number;
}

/** A stored upload: its file name in the user's folder, and whether this call created it. */
export interface StoredMedia {
  name: string;
  size: number;
  created: boolean;
}

/** File name of the key that names media files (in the media directory, 0600). */
export const MEDIA_KEY_FILE = ".media-key";

/** A stored media file's name: 64 hex characters and the type's extension. */
export const MEDIA_FILE_NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp|mp3|ogg|wav|webm)$/;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}

/**
 * Alert media on disk, one private folder per user (`<media dir>/<user id>/`, 0700; files 0600).
 * A file is named by an HMAC of the user and the content's SHA-256 under a key of the media
 * directory, so the same bytes uploaded twice by one user are one file (uploads are idempotent,
 * also when they race), while its address tells nothing about the content nor whether another
 * user uploaded the same bytes. Uploads of one user run one at a time in this process, so the
 * quota is checked against what is really on disk.
 */
export class MediaStore {
  readonly #queues = new Map<number, Promise<unknown>>();
  #key: Promise<Buffer> | null = null;

  constructor(
    /** The media directory, `<data dir>/media`. */
    readonly dir: string,
    readonly quota: MediaQuota,
  ) {}

  /** The folder of a user's media. */
  userDir(userId: number): string {
    return join(this.dir, String(userId));
  }

  /** The path of a user's media file, or null when the name is not one this store gives. */
  filePath(userId: number, name: string): string | null {
    return MEDIA_FILE_NAME.test(name) ? join(this.userDir(userId), name) : null;
  }

  /** Files and bytes the user's media take now. */
  async usage(userId: number): Promise<MediaUsage> {
    const files = await this.list(userId);
    return { files: files.length, bytes: files.reduce((sum, file) => sum + file.size, 0) };
  }

  /**
   * Refuses, before a body is read, an upload whose declared size (the Content-Length) exceeds what
   * is left of the user's byte quota: 413 OVATION_ERR_MEDIA_QUOTA_BYTES. (The file count is checked
   * once the body is read: the same bytes again are no new file and pass at the limit.)
   */
  async checkRoom(userId: number, declaredBytes: number): Promise<void> {
    const usage = await this.usage(userId);
    if (usage.bytes + declaredBytes > this.quota.bytes) throw this.#bytesError(usage);
  }

  /** Deletes one of the user's media files; false when the user has no such file. */
  async remove(userId: number, name: string): Promise<boolean> {
    const path = this.filePath(userId, name);
    if (path === null) return false;
    return this.#serialized(userId, async () => {
      try {
        await rm(path);
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    });
  }

  /** The names and sizes of the user's media files. */
  async list(userId: number): Promise<Array<{ name: string; size: number }>> {
    let names: string[];
    try {
      names = await readdir(this.userDir(userId));
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const files: Array<{ name: string; size: number }> = [];
    for (const name of names.filter((n) => MEDIA_FILE_NAME.test(n)).sort()) {
      try {
        files.push({ name, size: (await stat(join(this.userDir(userId), name))).size });
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
    return files;
  }

  /**
   * Stores `bytes` as the user's media with extension `ext`. The same bytes already stored for the
   * user answer the existing file (`created: false`) and count nothing against the quota.
   */
  save(userId: number, ext: string, bytes: Buffer): Promise<StoredMedia> {
    return this.#serialized(userId, async () => {
      const name = `${await this.#nameOf(userId, bytes)}.${ext}`;
      const dir = this.userDir(userId);
      const path = join(dir, name);
      try {
        await stat(path);
        return { name, size: bytes.length, created: false };
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      const usage = await this.usage(userId);
      if (usage.files + 1 > this.quota.files) throw this.#filesError();
      if (usage.bytes + bytes.length > this.quota.bytes) throw this.#bytesError(usage);
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      // A temporary name of its own per upload: racing uploads (on other nodes sharing the folder) never collide.
      const temp = join(dir, `.${randomUUID()}.tmp`);
      try {
        await writeFile(temp, bytes, { mode: PRIVATE_FILE_MODE, flag: "wx" });
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      return { name, size: bytes.length, created: true };
    });
  }

  /** Deletes every media file of a user (the account was deleted). */
  async deleteUser(userId: number): Promise<void> {
    await this.#serialized(userId, () => rm(this.userDir(userId), { recursive: true, force: true }));
  }

  #filesError(): ApiError {
    const message = `You may keep at most ${this.quota.files} media files (OVATION_MEDIA_QUOTA_FILES); delete some before uploading more.`;
    return new ApiError("OVATION_ERR_MEDIA_QUOTA_FILES", { message, errors: { file: [message] } });
  }

  #bytesError(usage: MediaUsage): ApiError {
    const left = Math.max(0, this.quota.bytes - usage.bytes);
    const message = `Your media may take at most ${this.quota.bytes} bytes (OVATION_MEDIA_QUOTA_BYTES); ${left} bytes are left.`;
    return new ApiError("OVATION_ERR_MEDIA_QUOTA_BYTES", { message, errors: { file: [message] } });
  }

  async #nameOf(userId: number, bytes: Buffer): Promise<string> {
    const digest = createHash("sha256").update(bytes).digest("hex");
    return createHmac("sha256", await this.#mediaKey()).update(`${userId}:${digest}`).digest("hex");
  }

  /** The naming key: read from the media directory, or created there once (nodes sharing the folder share it). */
  #mediaKey(): Promise<Buffer> {
    this.#key ??= (async () => {
      await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const path = join(this.dir, MEDIA_KEY_FILE);
      // Written whole under a temporary name, then linked: a node sharing the folder never reads half a key.
      const temp = join(this.dir, `.${randomUUID()}.tmp`);
      try {
        await writeFile(temp, randomBytes(32).toString("base64url"), { mode: PRIVATE_FILE_MODE, flag: "wx" });
        await link(temp, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      } finally {
        await rm(temp, { force: true });
      }
      return Buffer.from((await readFile(path, "utf8")).trim(), "base64url");
    })();
    this.#key.catch(() => (this.#key = null));
    return this.#key;
  }

  #serialized<T>(userId: number, task: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(userId) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => undefined);
    this.#queues.set(userId, settled);
    void settled.then(() => {
      if (this.#queues.get(userId) === settled) this.#queues.delete(userId);
    });
    return next;
  }
}
