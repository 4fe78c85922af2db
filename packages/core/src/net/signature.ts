import { createHmac, timingSafeEqual } from "node:crypto";

/** Header with the Unix time (seconds) at which a template call was signed. */
export const OVATION_TIMESTAMP_HEADER = "x-ovation-timestamp";
/** Header with `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`. */
export const OVATION_SIGNATURE_HEADER = "x-ovation-signature";
/** Version of the proxy_pass JSON body (`version` field) and of the signature scheme. */
export const OVATION_PROXY_PASS_VERSION = 1;

/** The two signature headers of one request. */
export interface OvationSignatureHeaders {
  "x-ovation-timestamp": string;
  "x-ovation-signature": string;
}

function hexDigest(secret: string, timestamp: string, body: string | Uint8Array): string {
  const mac = createHmac("sha256", secret);
  mac.update(`${timestamp}.`);
  mac.update(body);
  return mac.digest("hex");
}

/**
 * Signs an outbound template call: HMAC-SHA256 with the user's secret over
 * `<timestamp>.<body>` (body as sent; empty for requests without one).
 */
export function signOvationRequest(options: { secret: string; body: string | Uint8Array; nowMs: number }): OvationSignatureHeaders {
  const timestamp = String(Math.floor(options.nowMs / 1000));
  return {
    [OVATION_TIMESTAMP_HEADER]: timestamp,
    [OVATION_SIGNATURE_HEADER]: `sha256=${hexDigest(options.secret, timestamp, options.body)}`,
  } as OvationSignatureHeaders;
}

/** Input of {@link verifyOvationSignature}: what a receiver got, as received. */
export interface VerifyOvationSignatureOptions {
  /** The user's signing secret (shown in the Ovation dashboard). */
  secret: string;
  /** Value of the `X-Ovation-Timestamp` header (Unix seconds). */
  timestamp: string | null | undefined;
  /** Value of the `X-Ovation-Signature` header (`sha256=<hex>`). */
  signature: string | null | undefined;
  /** The raw request body, exactly as received (before any JSON parsing). */
  body: string | Uint8Array;
  /** Largest accepted distance between the timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Current time in milliseconds (default `Date.now()`). */
  now?: number;
}

/**
 * For receivers of `proxy_pass`/`json` calls: true when the request was signed with `secret`
 * within `toleranceSeconds` of now. The comparison runs in constant time; a missing, malformed or
 * stale header yields false, never an exception.
 */
export function verifyOvationSignature(options: VerifyOvationSignatureOptions): boolean {
  const { secret, timestamp, signature, body } = options;
  if (typeof timestamp !== "string" || typeof signature !== "string" || secret.length === 0) return false;
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
  if (!match?.[1]) return false;
  const expected = Buffer.from(hexDigest(secret, timestamp, body), "hex");
  const given = Buffer.from(match[1], "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
