import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyReply, onRequestAsyncHookHandler } from "fastify";
import { z } from "zod";
import { mediaListSchema, mediaUploadedSchema } from "@ovation/core/api";
import { ApiError } from "../../errors.js";
import { MEDIA_FILE_NAME } from "../../media/media-store.js";
import { channelUserOf, channelRoute } from "../channel-routes.js";
import { authErrorResponses, errorBodySchema } from "../types.js";
import type { ZodApp } from "../types.js";

/** Largest upload, in bytes (alert sounds and images are small; 5 MiB fits a long sound). */
export const MEDIA_MAX_BYTES = 5 * 1024 * 1024;

/** The media types an upload may have, their file extension and how their bytes start. */
const MEDIA_TYPES: Readonly<Record<string, { ext: string; magic: (b: Buffer) => boolean }>> = {
  "image/png": { ext: "png", magic: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  "image/jpeg": { ext: "jpg", magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  "image/gif": { ext: "gif", magic: (b) => b.subarray(0, 4).toString("latin1") === "GIF8" },
  "image/webp": { ext: "webp", magic: (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP" },
  "audio/mpeg": { ext: "mp3", magic: (b) => b.subarray(0, 3).toString("latin1") === "ID3" || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0) },
  "audio/ogg": { ext: "ogg", magic: (b) => b.subarray(0, 4).toString("latin1") === "OggS" },
  "audio/wav": { ext: "wav", magic: (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WAVE" },
  "audio/webm": { ext: "webm", magic: (b) => b.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])) },
};
const ALIASES: Readonly<Record<string, string>> = { "audio/mp3": "audio/mpeg", "audio/x-wav": "audio/wav", "audio/wave": "audio/wav", "image/jpg": "image/jpeg" };
const EXT_TYPES = Object.fromEntries(Object.entries(MEDIA_TYPES).map(([type, { ext }]) => [ext, type]));

function mediaTypeOf(header: string | undefined): string | null {
  const type = (header ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const canonical = ALIASES[type] ?? type;
  return canonical in MEDIA_TYPES ? canonical : null;
}

/**
 * Alert media uploads: `POST /v1/media` (scope `alerts:manage`) stores an image or sound in the
 * caller's own media folder (media-store.ts: per-user quota, idempotent, private modes) and answers
 * its public URL `/media/<user id>/<name>`; `GET` serves it to anyone (alert media is public in OBS
 * anyway; the name is a keyed hash, so it reveals neither the content nor other users' uploads) with
 * nosniff and a CSP that runs nothing, so an upload can never become a page. The token, and the
 * quota against the declared Content-Length, are checked before the body is read; a slow body is
 * cut by the server's body timeout. Files of the flat layout of earlier versions
 * (`/media/<sha256>.<ext>`) are still served. `/v1/bots/{user}/media...` does the same on a channel
 * the caller manages: the streamer's folder and quota.
 */
export async function mediaRoutes(app: ZodApp): Promise<void> {
  const { config, media } = app.ovation;
  const auth = app.ovation.authenticate("alerts:manage");

  /** Runs before the body is read: a stranger, or an upload that cannot fit, is answered without waiting for it. */
  const beforeBody: onRequestAsyncHookHandler = async function checkBeforeBody(request, reply) {
    try {
      await auth.call(this, request, reply);
      const declared = Number(request.headers["content-length"] ?? 0);
      await media.checkRoom(channelUserOf(request), Number.isFinite(declared) ? declared : 0);
    } catch (error) {
      // The connection is closed after the answer, so an unread body is not waited for.
      void reply.header("connection", "close");
      throw error;
    }
  };

  await app.register(async (scope) => {
    scope.addContentTypeParser(/^(image|audio)\//, { parseAs: "buffer", bodyLimit: MEDIA_MAX_BYTES }, (_request, body, done) => done(null, body));
    channelRoute(
      scope,
      { method: "POST", path: "/v1/media" },
      (form) => ({
        onRequest: beforeBody,
        bodyLimit: MEDIA_MAX_BYTES,
        schema: {
          params: form.params,
          tags: ["alert sets"],
          security: [{ bearerAuth: [] }],
          summary: "Upload an alert image or sound (the raw file as the body, its type as Content-Type); the same bytes again answer the same URL",
          response: { 200: mediaUploadedSchema, 201: mediaUploadedSchema, ...authErrorResponses, 413: errorBodySchema, 415: errorBodySchema, 422: errorBodySchema },
        },
      }),
      async (request, reply) => {
        const type = mediaTypeOf(request.headers["content-type"]);
        if (type === null || !Buffer.isBuffer(request.body)) throw new ApiError("OVATION_ERR_MEDIA_UNSUPPORTED_TYPE");
        const body = request.body;
        const entry = MEDIA_TYPES[type];
        if (!entry?.magic(body)) throw new ApiError("OVATION_ERR_MEDIA_CONTENT_MISMATCH", { errors: { file: [`The file does not start like ${type}.`] } });
        const userId = channelUserOf(request);
        const stored = await media.save(userId, entry.ext, body);
        return reply.code(stored.created ? 201 : 200).send({ url: `${config.publicUrl}/media/${userId}/${stored.name}`, content_type: type, size: stored.size });
      },
    );
  });

  channelRoute(
    app,
    { method: "GET", path: "/v1/media" },
    (form) => ({
      preHandler: auth,
      schema: { params: form.params, tags: ["alert sets"], security: [{ bearerAuth: [] }], summary: "Your uploaded media, what they take and your quota", response: { 200: mediaListSchema, ...authErrorResponses } },
    }),
    async (request) => {
      const userId = channelUserOf(request);
      const files = await media.list(userId);
      return {
        data: files.map((file) => ({ url: `${config.publicUrl}/media/${userId}/${file.name}`, size: file.size })),
        usage: { files: files.length, bytes: files.reduce((sum, file) => sum + file.size, 0) },
        quota: { files: media.quota.files, bytes: media.quota.bytes },
      };
    },
  );
  const params = z.object({ file: z.string() });
  channelRoute(
    app,
    { method: "DELETE", path: "/v1/media/:file", params },
    (form) => ({
      preHandler: auth,
      schema: {
        tags: ["alert sets"],
        security: [{ bearerAuth: [] }],
        summary: "Delete one of your uploaded media (its address answers 404 from then on)",
        params: form.params,
        response: { 204: z.null(), ...authErrorResponses, 404: errorBodySchema },
      },
    }),
    async (request, reply) => {
      if (!(await media.remove(channelUserOf(request), request.params.file))) throw new ApiError("OVATION_ERR_HTTP_NOT_FOUND");
      return reply.code(204).send(null);
    },
  );

  const serve = async (reply: FastifyReply, path: string | null, ext: string): Promise<FastifyReply> => {
    let bytes: Buffer;
    try {
      if (path === null) throw new Error("not a media name");
      bytes = await readFile(path);
    } catch {
      throw new ApiError("OVATION_ERR_HTTP_NOT_FOUND");
    }
    return reply
      .headers({
        "content-type": EXT_TYPES[ext] ?? "application/octet-stream",
        "cache-control": "public, max-age=31536000, immutable",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "access-control-allow-origin": "*",
      })
      .send(bytes);
  };

  app.get("/media/:user/:file", { schema: { hide: true, params: z.object({ user: z.string(), file: z.string() }) } }, async (request, reply) => {
    const { user, file } = request.params;
    const userId = /^[1-9]\d{0,15}$/.test(user) ? Number(user) : null;
    return serve(reply, userId === null ? null : media.filePath(userId, file), extensionOf(file));
  });

  app.get("/media/:file", { schema: { hide: true, params: z.object({ file: z.string() }) } }, async (request, reply) => {
    const { file } = request.params;
    return serve(reply, MEDIA_FILE_NAME.test(file) ? join(media.dir, file) : null, extensionOf(file));
  });
}

function extensionOf(file: string): string {
  return file.slice(file.lastIndexOf(".") + 1);
}
