import { z } from "zod";
import { channelUserOf, routeForms } from "../channel-routes.js";
import { ApiError, fieldError } from "../../errors.js";
import { SpeechError } from "../../tts/index.js";
import type { SpeechAudio, SpeechService } from "../../tts/index.js";
import { authErrorResponses, errorBodySchema } from "../types.js";
import type { ZodApp } from "../types.js";

const voiceSchema = z.string().max(64).regex(/^[A-Za-z0-9_./+-]+$/, "must be a voice id (letters, digits, _ . / + -)");

/** Speaks `text`, turning the provider's failures into the API's errors (a bad voice names the field). */
export async function speakOrThrow(speech: SpeechService, text: string, voice: string): Promise<SpeechAudio> {
  try {
    return await speech.speak(text, voice);
  } catch (error) {
    if (error instanceof SpeechError && error.code === "unknown_voice") throw fieldError("voice", `The voice field is invalid: ${error.message}.`);
    if (error instanceof SpeechError && error.code === "engine_unavailable") throw new ApiError("OVATION_ERR_TTS_ENGINE_UNAVAILABLE", { message: error.message });
    throw new ApiError("OVATION_ERR_TTS_ENGINE_FAILED");
  }
}

/**
 * Read-aloud alerts (docs/tts.md): a preview of the speech for the dashboard, the voices, the approval
 * queue (hold, approve, skip) and "skip speech". Scope `alerts:manage`; each also at
 * `/v1/bots/{user}/tts/...` for a channel the caller manages (an editor: the queue and "skip speech"
 * act on the streamer's alerts sources, as the alert queue's routes do).
 */
export async function ttsRoutes(app: ZodApp): Promise<void> {
  const { speech, hub } = app.ovation;
  const auth = app.ovation.authenticate("alerts:manage");
  const notificationParam = z.object({ notification_id: z.string().min(1).max(128) });

  for (const form of routeForms("/v1/tts/preview")) {
    app.post(
      form.url,
      {
        preHandler: auth,
        schema: {
          params: form.params,
          tags: ["tts"],
          summary: "Speak a text as the alerts sources would (audio/wav)",
          description: "`voice` optional: the engine's default voice. The text is spoken as given (no moderation): it is the streamer's own.",
          security: [{ bearerAuth: [] }],
          // No response schema: the answer is audio/wav bytes (errors are the usual JSON bodies: 422, 502, 503).
          body: z.object({ text: z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters"), voice: voiceSchema.optional() }),
        },
      },
      async (request, reply) => {
        channelUserOf(request);
        const audio = await speakOrThrow(speech, request.body.text, request.body.voice ?? "");
        return reply.type("audio/wav").header("cache-control", "no-store").header("x-ovation-speech-duration-ms", String(audio.durationMs)).send(audio.wav);
      },
    );
  }

  for (const form of routeForms("/v1/tts/voices")) {
    app.get(
      form.url,
      {
        preHandler: auth,
        schema: {
          params: form.params,
          tags: ["tts"],
          summary: "The voices of the speech engine",
          security: [{ bearerAuth: [] }],
          response: { 200: z.object({ engine: z.string(), default: z.string(), data: z.array(z.string()) }), 503: errorBodySchema, ...authErrorResponses },
        },
      },
      async (request) => {
        channelUserOf(request); // who may, as for the preview
        try {
          return { engine: speech.provider.id, default: speech.provider.defaultVoice, data: await speech.provider.voices() };
        } catch (error) {
          throw new ApiError("OVATION_ERR_TTS_ENGINE_UNAVAILABLE", { message: error instanceof Error ? error.message : String(error) });
        }
      },
    );
  }

  const heldSchema = z.object({ notification_id: z.string(), type: z.string(), name: z.string(), text: z.string(), held_at: z.string() });
  for (const form of routeForms("/v1/tts/queue")) {
    app.get(
      form.url,
      {
        preHandler: auth,
        schema: {
          params: form.params,
          tags: ["tts"],
          summary: "Messages held for approval (alerts sources with `tts.approval`), oldest first",
          security: [{ bearerAuth: [] }],
          response: { 200: z.object({ data: z.array(heldSchema) }), ...authErrorResponses },
        },
      },
      async (request) => ({ data: speech.held(channelUserOf(request)) }),
    );
  }

  for (const action of ["approve", "skip"] as const) {
    for (const form of routeForms(`/v1/tts/queue/:notification_id/${action}`, notificationParam)) {
      app.post(
        form.url,
        {
          preHandler: auth,
          schema: {
            tags: ["tts"],
            summary: action === "approve" ? "Approve a held message: the alerts sources read it now" : "Drop a held message unread",
            security: [{ bearerAuth: [] }],
            params: form.params,
            response: { 200: z.object({ notification_id: z.string(), action: z.string() }), 404: errorBodySchema, ...authErrorResponses },
          },
        },
        async (request) => {
          const userId = channelUserOf(request);
          const id = request.params.notification_id;
          const done = action === "approve" ? speech.approve(userId, id) : speech.skip(userId, id);
          if (!done) throw new ApiError("OVATION_ERR_TTS_NOT_HELD");
          if (action === "approve") hub.speechApproved(userId, id);
          return { notification_id: id, action };
        },
      );
    }
  }

  for (const form of routeForms("/v1/tts/skip")) {
    app.post(
      form.url,
      {
        preHandler: auth,
        schema: {
          params: form.params,
          tags: ["tts"],
          summary: "Skip speech: the alerts sources stop the message being read (the alert itself goes on)",
          security: [{ bearerAuth: [] }],
          response: { 200: z.object({ action: z.literal("skip") }), ...authErrorResponses },
        },
      },
      async (request) => {
        hub.skipSpeech(channelUserOf(request));
        return { action: "skip" as const };
      },
    );
  }
}
