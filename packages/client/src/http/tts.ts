import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link ttsApi}. */
export const TTS_ROUTES = {
  preview: { method: "POST", path: "/v1/tts/preview" },
  voices: { method: "GET", path: "/v1/tts/voices" },
  queue: { method: "GET", path: "/v1/tts/queue" },
  approve: { method: "POST", path: "/v1/tts/queue/{notification_id}/approve" },
  skipHeld: { method: "POST", path: "/v1/tts/queue/{notification_id}/skip" },
  skip: { method: "POST", path: "/v1/tts/skip" },
} as const;

/** A message held for approval. */
export interface HeldSpeech {
  notification_id: string;
  type: string;
  name: string;
  text: string;
  held_at: string;
}

/** Read-aloud alerts (docs/tts.md; scope `alerts:manage`). */
export function ttsApi(http: HttpClient) {
  return {
    /** `POST /v1/tts/preview`: the WAV of `text` in `voice` (the default voice when omitted). */
    preview: (body: { text: string; voice?: string }, options?: CallOptions) => http.call<Uint8Array>(TTS_ROUTES.preview, { ...options, body, as: "bytes" }),
    /** `GET /v1/tts/voices`: the engine and its voices. */
    voices: (options?: CallOptions) => http.call<{ engine: string; default: string; data: string[] }>(TTS_ROUTES.voices, options),
    /** `GET /v1/tts/queue`: messages held for approval, oldest first. */
    queue: (options?: CallOptions) => http.call<{ data: HeldSpeech[] }>(TTS_ROUTES.queue, options),
    /** `POST /v1/tts/queue/{id}/approve`: the alerts sources read it now. */
    approve: (notificationId: string, options?: CallOptions) => http.call<{ notification_id: string; action: string }>(TTS_ROUTES.approve, { ...options, params: { notification_id: notificationId } }),
    /** `POST /v1/tts/queue/{id}/skip`: dropped unread. */
    skipHeld: (notificationId: string, options?: CallOptions) => http.call<{ notification_id: string; action: string }>(TTS_ROUTES.skipHeld, { ...options, params: { notification_id: notificationId } }),
    /** `POST /v1/tts/skip`: stop the message being read now. */
    skip: (options?: CallOptions) => http.call<{ action: "skip" }>(TTS_ROUTES.skip, options),
  };
}

/** The API of {@link ttsApi}. */
export type TtsApi = ReturnType<typeof ttsApi>;
