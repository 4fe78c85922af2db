import type * as api from "@ovation/core/api";
import type { Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link mediaApi}. */
export const MEDIA_ROUTES = {
  upload: { method: "POST", path: "/v1/media" },
  list: { method: "GET", path: "/v1/media" },
  delete: { method: "DELETE", path: "/v1/media/{file}" },
} as const;

/** Alert media (scope `alerts:manage`): upload an image or sound, get the URL a template can use. */
export function mediaApi(http: HttpClient) {
  return {
    /**
     * `POST /v1/media`: the file's bytes with its type (`image/png`, `audio/mpeg`...); answers the
     * public URL (`<base>/media/<user id>/<name>.<ext>`; the same bytes again answer the same URL).
     * PNG, JPEG, GIF, WebP, MP3, Ogg, WAV, WebM; at most 5 MiB; within the per-user quota.
     */
    upload: (file: Blob | ArrayBuffer | Uint8Array, contentType: string, options?: CallOptions) =>
      http.call<Out<typeof api.mediaUploadedSchema>>(MEDIA_ROUTES.upload, { ...options, headers: { ...options?.headers, "content-type": contentType }, body: file }),
    /** `GET /v1/media`: your media, what they take and your quota. */
    list: (options?: CallOptions) => http.call<Out<typeof api.mediaListSchema>>(MEDIA_ROUTES.list, options),
    /** `DELETE /v1/media/{file}`: deletes one of your media (`file`: the last segment of its URL). */
    delete: (file: string, options?: CallOptions) => http.call<void>(MEDIA_ROUTES.delete, { ...options, params: { file } }),
  };
}

/** The API of {@link mediaApi}. */
export type MediaApi = ReturnType<typeof mediaApi>;
