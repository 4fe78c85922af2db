import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Low } from "lowdb";
import type { OidcArtifact } from "../store/oidc-artifact-storage.js";
import { PrivateDataFile } from "../store/private-files.js";
import { OvationError } from "@ovation/core";

/** An OAuth client registered with `ovation client create` (kept in `oauth-clients.json`). The secret is kept only as a SHA-256 hash. */
export interface OAuthClientRecord {
  client_id: string;
  name: string;
  /** Hex SHA-256 of the client secret; null for public clients (PKCE, no secret). */
  secret_hash: string | null;
  redirect_uris: string[];
  public: boolean;
  created_at: string;
  /** Where RP-initiated sign-out may send the browser back (built-in clients only). */
  post_logout_redirect_uris?: string[];
}

/** One stored oidc-provider artifact, under the key `storageKey` (oidc/adapter.ts) gives its id. */
export type OidcEntry = OidcArtifact;

/** A browser session of the identity pages (and the socket handshake). */
export interface SessionRecord {
  id_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

/** A one-time EAT verification code, stored hashed. Times are epoch milliseconds. */
export interface EatCodeRecord {
  id: string;
  user_id: number;
  code_hash: string;
  created_at: number;
  expires_at: number;
  wrong_attempts: number;
  /** Set when the code was redeemed or burned; a consumed code never verifies again. */
  consumed_at: number | null;
  burned: boolean;
}

/** An issued Elevated Access Token; the secret is stored as SHA-256 only. Times are epoch milliseconds. */
export interface EatRecord {
  id: string;
  user_id: number;
  secret_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** A pending verification of a new email address. */
export interface EmailVerificationRecord {
  id: string;
  user_id: number;
  email: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  sent_count: number;
}

/** A user's TOTP enrolment; recovery codes are stored hashed. */
export interface TotpRecord {
  user_id: number;
  secret: string;
  confirmed_at: number | null;
  recovery_code_hashes: string[];
  /** The last time step a code was accepted for: a code is never accepted twice. */
  last_step: number | null;
  created_at: number;
}

/** A registered WebAuthn credential (hardware key or passkey). */
export interface WebAuthnCredentialRecord {
  id: string;
  user_id: number;
  public_key: string;
  counter: number;
  transports: string[];
  name: string;
  created_at: number;
}

/** A pending WebAuthn registration challenge. */
export interface WebAuthnChallengeRecord {
  user_id: number;
  challenge: string;
  expires_at: number;
}

/** A sign-in waiting for its security key: the password was right, the key is still to come. */
export interface PendingKeyLoginRecord {
  interaction_uid: string;
  user_id: number;
  challenge: string;
  expires_at: number;
}

/** A pending password reset (the link mailed by "Forgot your password?"), stored hashed. Times are epoch milliseconds. */
export interface PasswordResetRecord {
  user_id: number;
  token_hash: string;
  created_at: number;
  expires_at: number;
}

/** Everything the identity module keeps in its own lowdb file. */
export interface IdentityData {
  version: 1;
  oidc: Record<string, Record<string, OidcEntry>>;
  sessions: SessionRecord[];
  eat_codes: EatCodeRecord[];
  eats: EatRecord[];
  email_verifications: EmailVerificationRecord[];
  totp: TotpRecord[];
  webauthn_credentials: WebAuthnCredentialRecord[];
  webauthn_challenges: WebAuthnChallengeRecord[];
  pending_key_logins: PendingKeyLoginRecord[];
  password_resets: PasswordResetRecord[];
}

function emptyData(): IdentityData {
  return {
    version: 1,
    oidc: {},
    sessions: [],
    eat_codes: [],
    eats: [],
    email_verifications: [],
    totp: [],
    webauthn_credentials: [],
    webauthn_challenges: [],
    pending_key_logins: [],
    password_resets: [],
  };
}

const COLLECTIONS = [
  "sessions",
  "eat_codes",
  "eats",
  "email_verifications",
  "totp",
  "webauthn_credentials",
  "webauthn_challenges",
  "pending_key_logins",
  "password_resets",
] as const;

/** The identity file exists but is not an identity store; it is left untouched. */
export class IdentityStoreCorruptError extends OvationError {
  override readonly name = "IdentityStoreCorruptError";
  constructor(path: string, why: string) {
    super("OVATION_ERR_IDENTITY_STORE_CORRUPT", `${path} is not an identity store: ${why}`, { details: { path } });
  }
}

/**
 * The host's store when several nodes share it (PostgreSQL): the identity data then lives in its
 * documents (`extensions["identity.<collection>"]`), seen and merged by every node. `Store` is one.
 */
export interface SharedIdentityHost {
  readonly data: { readonly extensions: Record<string, unknown> };
  update<T>(fn: (data: { extensions: Record<string, unknown> }) => T, touched?: { extensions?: readonly string[] }): T;
  persisted(): Promise<void>;
  claimExtension<T>(key: string, create: () => T): Promise<T>;
}

/** The extension key of an identity collection in the host's store. */
export function sharedIdentityKey(name: string): string {
  return `identity.${name}`;
}

/** Where the identity data is: the module's own file, or the host's shared store. */
interface IdentityBacking {
  data(): IdentityData;
  save(): Promise<void>;
}

/**
 * The identity data's view of the host's shared store: each collection is a document of its own,
 * read through on every access (another node may have replaced it); `save` writes the collections
 * touched since the last save.
 */
function sharedBacking(host: SharedIdentityHost): IdentityBacking {
  const touched = new Set<string>();
  const data = { version: 1, oidc: {} } as IdentityData;
  for (const name of COLLECTIONS) {
    const key = sharedIdentityKey(name);
    Object.defineProperty(data, name, {
      enumerable: true,
      get: () => {
        touched.add(key);
        const value = host.data.extensions[key];
        if (Array.isArray(value)) return value;
        const created: unknown[] = [];
        host.update((d) => (d.extensions[key] = created), { extensions: [key] });
        return created;
      },
      set: (value: unknown[]) => {
        host.update((d) => (d.extensions[key] = value), { extensions: [key] });
      },
    });
  }
  return {
    data: () => data,
    save: async () => {
      const keys = [...touched];
      touched.clear();
      host.update(() => undefined, { extensions: keys });
      await host.persisted();
    },
  };
}

/**
 * The identity module's own lowdb file (`<data dir>/identity.json`), apart from the host's store so
 * the module can move to a host of its own; with several nodes on one PostgreSQL database, the
 * host's shared store instead (`IdentityStore.shared`). Mutate `data`, then `await save()` (with
 * no await between: another node's change may replace a collection meanwhile).
 */
export class IdentityStore {
  private constructor(
    private readonly backing: IdentityBacking,
    /** Absolute path of the file (or where the data is, for logs). */
    readonly path: string,
  ) {}

  /**
   * The identity data in the host's shared store (several nodes on one PostgreSQL database). The
   * collections of `<dataDir>/identity.json`, if this node has one (an installation that ran on
   * files), are taken over by the first node to start on the database; the file is left as it is.
   */
  static async shared(host: SharedIdentityHost, dataDir: string, fileName = "identity.json"): Promise<IdentityStore> {
    const path = join(dataDir, fileName);
    let file: Partial<IdentityData> | null = null;
    try {
      file = JSON.parse(await readFile(path, "utf8")) as Partial<IdentityData>;
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== "ENOENT") throw new IdentityStoreCorruptError(path, cause instanceof Error ? cause.message : String(cause));
    }
    if (file !== null) {
      if (typeof file !== "object" || (file as { version?: unknown }).version !== 1) throw new IdentityStoreCorruptError(path, "missing `version: 1`");
      const found = file;
      for (const name of COLLECTIONS) {
        const records = found[name];
        if (Array.isArray(records) && records.length > 0) await host.claimExtension(sharedIdentityKey(name), () => records);
      }
    }
    return new IdentityStore(sharedBacking(host), `the host's shared store (PostgreSQL)`);
  }

  /** Opens (or creates) `<dataDir>/identity.json`. */
  static async open(dataDir: string, fileName = "identity.json"): Promise<IdentityStore> {
    await mkdir(dataDir, { recursive: true });
    const path = join(dataDir, fileName);
    const db = new Low<IdentityData>(new PrivateDataFile<IdentityData>(path, { parse: JSON.parse, stringify: (d) => JSON.stringify(d, null, 2) }), emptyData());
    try {
      await db.read();
    } catch (cause) {
      throw new IdentityStoreCorruptError(path, cause instanceof Error ? cause.message : String(cause));
    }
    const data: unknown = db.data;
    if (typeof data !== "object" || data === null || (data as { version?: unknown }).version !== 1) {
      throw new IdentityStoreCorruptError(path, "missing `version: 1`");
    }
    const typed = db.data;
    const defaults = emptyData();
    for (const key of COLLECTIONS) {
      if (!Array.isArray(typed[key])) (typed as unknown as Record<string, unknown>)[key] = defaults[key];
    }
    if (typeof typed.oidc !== "object" || typed.oidc === null) typed.oidc = {};
    // Pending platform sign-ins of older versions lived here; they now wait one entry each (platforms/pending.ts).
    delete (typed as unknown as Record<string, unknown>).platform_states;
    const store = new IdentityStore({ data: () => db.data, save: () => db.write() }, path);
    await store.save();
    return store;
  }

  /** The live data; change it, then call `save()`. */
  get data(): IdentityData {
    return this.backing.data();
  }

  /** Writes the file atomically (lowdb/steno: temp file + rename, queued), or the shared documents. */
  async save(): Promise<void> {
    await this.backing.save();
  }
}
