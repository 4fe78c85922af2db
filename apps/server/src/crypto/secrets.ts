/**
 * The one place secrets are made, hashed and compared: every token, code and client secret of the
 * host, the store and the identity module goes through these (hashed at rest, compared in constant time).
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";

/** Hex SHA-256 of a secret; how tokens, codes and client secrets are kept at rest (never the secret itself). */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** Compares two strings in time that depends only on their length (hash both sides first). */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a, "utf8").digest();
  const hb = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(ha, hb);
}

/** Compares a raw secret with a stored SHA-256 hex digest in constant time. */
export function matchesHash(raw: string, storedHex: string): boolean {
  const stored = Buffer.from(storedHex, "hex");
  const actual = createHash("sha256").update(raw, "utf8").digest();
  return stored.length === actual.length && timingSafeEqual(stored, actual);
}

/** A URL-safe random secret with `bytes` bytes of entropy, with an optional readable prefix. */
export function randomSecret(bytes = 32, prefix = ""): string {
  return `${prefix}${randomBytes(bytes).toString("base64url")}`;
}

/** A random numeric code of `digits` digits (leading zeros kept). */
export function randomDigits(digits: number): string {
  let out = "";
  for (let i = 0; i < digits; i += 1) out += String(randomInt(0, 10));
  return out;
}
