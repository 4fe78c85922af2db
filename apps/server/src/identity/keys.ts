import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { JsonWebKey } from "node:crypto";
import { chmodSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { IdentityError } from "./errors.js";

/** File of the authorization server's secrets, beside `identity.json`, readable by the owner only. */
export const KEYS_FILE = "identity-keys.json";

/** Secrets of the authorization server: cookie signing keys and signing keys (private JWKs: ES256 for ID tokens, RS256 for access tokens). */
export interface IdentityKeys {
  cookie_keys: string[];
  signing_keys: JsonWebKey[];
}

const keysSchema = z.object({ version: z.literal(1), cookie_keys: z.array(z.string().min(32)).min(1), signing_keys: z.array(z.record(z.string(), z.unknown())).min(1) });

/**
 * Loads `<dataDir>/identity-keys.json`, creating it (mode 0600) with fresh keys on first start. It is
 * written once and never rewritten, so its permissions stay as set.
 */
export function loadOrCreateKeys(dataDir: string): IdentityKeys {
  const path = join(dataDir, KEYS_FILE);
  let text: string | null = null;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (text !== null) {
    let parsed;
    try {
      parsed = keysSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) throw new IdentityError("OVATION_ERR_IDENTITY_STORE_CORRUPT", { message: `${path} is not an identity key file; it is left untouched.` });
    const keys: IdentityKeys = { cookie_keys: parsed.data.cookie_keys, signing_keys: parsed.data.signing_keys as JsonWebKey[] };
    // Files written before access tokens became RS256 JWTs get their RSA key once (atomic rewrite, 0600).
    if (!keys.signing_keys.some((k) => k.alg === "RS256")) {
      keys.signing_keys.push(rsaSigningKey());
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify({ version: 1, ...keys }, null, 2), { mode: 0o600 });
      renameSync(temporary, path);
    }
    return keys;
  }
  // ES256 signs ID tokens (as strong as RSA-3072, generated in a millisecond); RS256 signs access
  // tokens, because the reference's client libraries verify them with RS256.
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const keys: IdentityKeys = {
    cookie_keys: [randomBytes(32).toString("base64url")],
    signing_keys: [{ ...privateKey.export({ format: "jwk" }), use: "sig", alg: "ES256", kid: randomBytes(8).toString("hex") } as JsonWebKey, rsaSigningKey()],
  };
  writeFileSync(path, JSON.stringify({ version: 1, ...keys }, null, 2), { mode: 0o600, flag: "wx" });
  chmodSync(path, 0o600);
  return keys;
}

function rsaSigningKey(): JsonWebKey {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), use: "sig", alg: "RS256", kid: randomBytes(8).toString("hex") } as JsonWebKey;
}
