import { createHash, timingSafeEqual } from "node:crypto";

/** sha256 of a raw token, hex: what the store keeps of a secret. */
export function hashToken(raw: string): string {
  return createHash("sha256").update(raw, "utf8").digest("hex");
}

/** Compares two secrets in constant time (both are hashed first, so lengths never leak). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a, "utf8").digest(), createHash("sha256").update(b, "utf8").digest());
}

/** Compares a raw secret with a stored sha256 hex digest in constant time. */
export function matchesHash(raw: string, storedHex: string): boolean {
  const stored = Buffer.from(storedHex, "hex");
  const actual = createHash("sha256").update(raw, "utf8").digest();
  return stored.length === actual.length && timingSafeEqual(stored, actual);
}
