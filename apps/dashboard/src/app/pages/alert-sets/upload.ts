import type { OvationClient } from "@ovation/client/http";

/** Largest file the host takes (`POST /v1/media`, docs/dashboard.md). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/** Uploads an image or sound to the host (`POST /v1/media`) and answers its public URL. */
export async function uploadMedia(api: OvationClient, file: File): Promise<string> {
  if (file.size > MAX_UPLOAD_BYTES) throw new Error(`the file is ${Math.ceil(file.size / 1024)} KiB; at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB`);
  return (await api.media.upload(file, file.type || "application/octet-stream")).url;
}
