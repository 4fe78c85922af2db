import type { IncomingMessage } from "node:http";
import { JWT_TOKEN_PREFIX, looksLikeJwt } from "../oidc/access-token-jwt.js";

/** Endpoints of the authorization server that clients post to (paths below `/oauth`). */
const CLIENT_ENDPOINTS = new Set(["/token", "/revoke", "/introspect"]);

/** The largest body read here (oidc-provider's own limit). */
const MAX_BODY_BYTES = 56 * 1024;

/** A body that could not be turned into form fields. */
export class UnreadableBodyError extends Error {
  override readonly name = "UnreadableBodyError";
}

async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new UnreadableBodyError(`the request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function scalar(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

async function formFields(contentType: string, body: Buffer): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  if (contentType.startsWith("application/x-www-form-urlencoded")) {
    for (const [key, value] of new URLSearchParams(body.toString("utf8"))) fields[key] ??= value;
    return fields;
  }
  if (contentType.startsWith("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      throw new UnreadableBodyError("the JSON body could not be parsed");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new UnreadableBodyError("the JSON body must be an object");
    for (const [key, value] of Object.entries(parsed)) {
      const text = scalar(value);
      if (text === undefined && value !== null) throw new UnreadableBodyError(`the JSON field ${key} must be a string`);
      if (text !== undefined) fields[key] = text;
    }
    return fields;
  }
  let form: FormData;
  try {
    // The platform's own multipart parser (undici), the same one fetch uses.
    form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new UnreadableBodyError("the multipart body could not be parsed");
  }
  for (const [key, value] of form.entries()) {
    if (typeof value !== "string") throw new UnreadableBodyError(`the multipart field ${key} must not be a file`);
    fields[key] = value;
  }
  return fields;
}

/**
 * oidc-provider reads only form-encoded bodies at the token, revocation and introspection
 * endpoints; the reference's clients also post JSON (Laravel's HTTP client) and multipart form
 * data (a desktop client). This reads such a body and hands oidc-provider its fields the way it
 * documents for upstream body parsers (`req.body`, announced as form-encoded). oidc-provider also
 * refuses to introspect or revoke anything shaped like a JWT; our access tokens are JWTs backed by
 * a stored record, so their `token` is passed on as `jwt:<token>`, which the storage adapter
 * resolves only after checking the signature (oidc/adapter.ts). Other requests are left untouched.
 * Throws UnreadableBodyError for a body that cannot be read as fields.
 */
export async function adaptClientRequestBody(request: IncomingMessage & { body?: unknown }, path: string): Promise<void> {
  if (request.method !== "POST" || !CLIENT_ENDPOINTS.has(path)) return;
  const contentType = (request.headers["content-type"] ?? "").toLowerCase();
  const tokenEndpoint = path === "/token";
  const readable = contentType.startsWith("application/json") || contentType.startsWith("multipart/form-data") || (!tokenEndpoint && contentType.startsWith("application/x-www-form-urlencoded"));
  if (!readable) return;
  const raw = await readAll(request);
  const fields = await formFields(contentType, raw);
  if (!tokenEndpoint && typeof fields.token === "string" && looksLikeJwt(fields.token)) fields.token = `${JWT_TOKEN_PREFIX}${fields.token}`;
  request.body = fields;
  request.headers["content-type"] = "application/x-www-form-urlencoded";
  // Koa treats a request without a length as bodiless; the stream itself is spent.
  request.headers["content-length"] = String(raw.length);
  delete request.headers["transfer-encoding"];
}
