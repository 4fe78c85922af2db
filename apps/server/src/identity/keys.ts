import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { JsonWebKey } from "node:crypto";
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { IdentityError } from "./identity-errors.js";
import { sharedIdentityKey } from "./identity-store.js";
import type { SharedIdentityHost } from "./identity-store.js";

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
  const keys = freshKeys();
  writeFileSync(path, JSON.stringify({ version: 1, ...keys }, null, 2), { mode: 0o600, flag: "wx" });
  chmodSync(path, 0o600);
  return keys;
}

/** New secrets for an authorization server. */
function freshKeys(): IdentityKeys {
  // ES256 signs ID tokens (as strong as RSA-3072, generated in a millisecond); RS256 signs access
  // tokens, because the reference's client libraries verify them with RS256.
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    cookie_keys: [randomBytes(32).toString("base64url")],
    signing_keys: [{ ...privateKey.export({ format: "jwk" }), use: "sig", alg: "ES256", kid: randomBytes(8).toString("hex") } as JsonWebKey, rsaSigningKey()],
  };
}

/**
 * The authorization server's secrets when several nodes share the host's PostgreSQL store: kept in
 * the database (`extensions["identity.keys"]`), so every node signs and verifies with the same
 * keys and cookies. The first node to start stores them: the keys of its data directory's
 * `identity-keys.json` when it has one (tokens and sessions it issued alone stay valid), else new ones.
 */
export async function loadOrCreateSharedKeys(dataDir: string, host: SharedIdentityHost): Promise<IdentityKeys> {
  const stored = await host.claimExtension(sharedIdentityKey("keys"), () => {
    const keys = existsSync(join(dataDir, KEYS_FILE)) ? loadOrCreateKeys(dataDir) : freshKeys();
    return { version: 1, ...keys };
  });
  const parsed = keysSchema.safeParse(stored);
  if (!parsed.success) throw new IdentityError("OVATION_ERR_IDENTITY_STORE_CORRUPT", { message: `The identity keys stored in the database (${sharedIdentityKey("keys")}) are not an identity key set; they are left untouched.` });
  return { cookie_keys: parsed.data.cookie_keys, signing_keys: parsed.data.signing_keys as JsonWebKey[] };
}

function rsaSigningKey(): JsonWebKey {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), use: "sig", alg: "RS256", kid: randomBytes(8).toString("hex") } as JsonWebKey;
}
