import type * as api from "@ovation/core/api";
import type { Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link mediaApi}. */
export const MEDIA_ROUTES = {
  upload: { method: "POST", path: "/v1/media" },
} as const;

/** Alert media (scope `alerts:manage`): upload an image or sound, get the URL a template can use. */
export function mediaApi(http: HttpClient) {
  return {
    /**
     * `POST /v1/media`: the file's bytes with its type (`image/png`, `audio/mpeg`...); answers the
     * public URL (`<base>/media/<sha256>.<ext>`). PNG, JPEG, GIF, WebP, MP3, Ogg, WAV, WebM; at most 5 MiB.
     */
    upload: (file: Blob | ArrayBuffer | Uint8Array, contentType: string, options?: CallOptions) =>
      http.call<Out<typeof api.mediaUploadedSchema>>(MEDIA_ROUTES.upload, { ...options, headers: { ...options?.headers, "content-type": contentType }, body: file }),
  };
}

/** The API of {@link mediaApi}. */
export type MediaApi = ReturnType<typeof mediaApi>;
