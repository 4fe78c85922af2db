import type { Session } from "../../auth/session.js";

/** Largest file the host takes (`POST /v1/media`, docs/dashboard.md). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/**
 * Uploads an image or sound to the host and answers its public URL. `@ovation/client` sends JSON
 * only, so this one binary call is made here (the same bearer token and error shape).
 */
export async function uploadMedia(session: Session, file: File): Promise<string> {
  if (file.size > MAX_UPLOAD_BYTES) throw new Error(`the file is ${Math.ceil(file.size / 1024)} KiB; at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB`);
  const token = await session.accessToken();
  const response = await fetch(`${session.boot.api_base}/v1/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, accept: "application/json", "content-type": file.type || "application/octet-stream" },
    body: file,
  });
  const body = (await response.json().catch(() => ({}))) as { url?: unknown; message?: unknown };
  if (!response.ok || typeof body.url !== "string") throw new Error(typeof body.message === "string" ? body.message : `HTTP ${response.status}`);
  return body.url;
}
