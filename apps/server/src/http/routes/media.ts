import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { mediaUploadedSchema } from "@ovation/core/api";
import { ApiError } from "../../errors.js";
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
const FILE_NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp|mp3|ogg|wav|webm)$/;

function mediaTypeOf(header: string | undefined): string | null {
  const type = (header ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const canonical = ALIASES[type] ?? type;
  return canonical in MEDIA_TYPES ? canonical : null;
}

/**
 * Alert media uploads: `POST /v1/media` (scope `alerts:manage`) stores an image or sound under
 * `<data dir>/media/` named by its SHA-256 and answers its public URL; `GET /media/<file>` serves it
 * to anyone (alert media is public in OBS anyway; the name is the content's hash), with nosniff and
 * a CSP that runs nothing, so an upload can never become a page.
 */
export async function mediaRoutes(app: ZodApp): Promise<void> {
  const { config } = app.ovation;
  const dir = join(config.dataDir, "media");
  const auth = app.ovation.authenticate("alerts:manage");

  await app.register(async (scope) => {
    scope.addContentTypeParser(/^(image|audio)\//, { parseAs: "buffer", bodyLimit: MEDIA_MAX_BYTES }, (_request, body, done) => done(null, body));
    scope.post(
      "/v1/media",
      {
        preHandler: auth,
        bodyLimit: MEDIA_MAX_BYTES,
        schema: {
          tags: ["alert sets"],
          security: [{ bearerAuth: [] }],
          summary: "Upload an alert image or sound (the raw file as the body, its type as Content-Type)",
          response: { 201: mediaUploadedSchema, ...authErrorResponses, 415: errorBodySchema, 422: errorBodySchema },
        },
      },
      async (request, reply) => {
        const type = mediaTypeOf(request.headers["content-type"]);
        if (type === null || !Buffer.isBuffer(request.body)) throw new ApiError("OVATION_ERR_MEDIA_UNSUPPORTED_TYPE");
        const body = request.body;
        const entry = MEDIA_TYPES[type];
        if (!entry?.magic(body)) throw new ApiError("OVATION_ERR_MEDIA_CONTENT_MISMATCH", { errors: { file: [`The file does not start like ${type}.`] } });
        const name = `${createHash("sha256").update(body).digest("hex")}.${entry.ext}`;
        await mkdir(dir, { recursive: true });
        const temp = join(dir, `.${name}.${process.pid}.tmp`);
        await writeFile(temp, body, { mode: 0o644 });
        await rename(temp, join(dir, name));
        return reply.code(201).send({ url: `${config.publicUrl}/media/${name}`, content_type: type, size: body.length });
      },
    );
  });

  app.get("/media/:file", { schema: { hide: true, params: z.object({ file: z.string() }) } }, async (request, reply) => {
    const { file } = request.params;
    const match = FILE_NAME.exec(file);
    if (!match) throw new ApiError("OVATION_ERR_HTTP_NOT_FOUND");
    let bytes: Buffer;
    try {
      bytes = await readFile(join(dir, file));
    } catch {
      throw new ApiError("OVATION_ERR_HTTP_NOT_FOUND");
    }
    return reply
      .headers({
        "content-type": EXT_TYPES[match[1] ?? ""] ?? "application/octet-stream",
        "cache-control": "public, max-age=31536000, immutable",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "access-control-allow-origin": "*",
      })
      .send(bytes);
  });
}
