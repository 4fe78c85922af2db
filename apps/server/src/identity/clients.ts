import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { timestamp } from "../store/records.js";
import { IdentityError } from "./identity-errors.js";
import { randomSecret, sha256Hex } from "../crypto/secrets.js";
import { sharedIdentityKey } from "./identity-store.js";
import type { OAuthClientRecord, SharedIdentityHost } from "./identity-store.js";

/** File of the registered OAuth clients, beside `identity.json`. */
export const CLIENTS_FILE = "oauth-clients.json";

const redirectUri = z
  .url({ error: "must be an absolute http(s) URL", protocol: /^https?$/ })
  .refine((u) => !u.includes("#"), "must not contain a fragment");

/** Input of `ovation client create`. */
export const newClientSchema = z.object({
  name: z.string().trim().min(1, "is required").max(100, "must not be greater than 100 characters"),
  redirect_uris: z.array(redirectUri).min(1, "must name at least one redirect URI").max(20, "must not name more than 20 redirect URIs"),
  public: z.boolean().default(false),
});

const fileSchema = z.object({
  version: z.literal(1),
  clients: z.array(
    z.object({
      client_id: z.string(),
      name: z.string(),
      secret_hash: z.string().nullable(),
      redirect_uris: z.array(z.string()),
      public: z.boolean(),
      created_at: z.string(),
    }),
  ),
});

/** A newly registered client: `client_secret` is shown here once (null for public clients). */
export interface CreatedClient {
  client_id: string;
  client_secret: string | null;
  name: string;
  redirect_uris: string[];
  public: boolean;
}

/**
 * The registered OAuth clients, in their own small file so that `ovation client create` can add one
 * while a server runs: the CLI writes it (temp file + rename), the server re-reads it when it changes.
 */
export class ClientRegistry {
  private cache: { mtimeMs: number; clients: OAuthClientRecord[] } | null = null;
  readonly path: string;

  /**
   * `shared`: the host's store when several nodes share it (PostgreSQL). Clients registered in this
   * node's file (`ovation client create` on its data directory) are then copied into the shared
   * document `extensions["identity.oauth_clients"]` when read, and every node knows every client.
   * `builtIn`: clients the host registers itself (the dashboard's public client): always present,
   * never written to the file or the shared document, and first-party (no consent page, see `isBuiltIn`).
   */
  constructor(
    dataDir: string,
    private readonly shared?: SharedIdentityHost,
    private readonly builtIn: readonly OAuthClientRecord[] = [],
  ) {
    this.path = join(dataDir, CLIENTS_FILE);
  }

  /** Every client: the built-in ones, then the registered ones (the file's, and shared, every node's). */
  all(): OAuthClientRecord[] {
    return this.builtIn.length === 0 ? this.#registered() : [...this.builtIn, ...this.#registered()];
  }

  /** True for a client the host registers itself (first-party: its grants need no consent page). */
  isBuiltIn(clientId: string): boolean {
    return this.builtIn.some((c) => c.client_id === clientId);
  }

  /** The registered clients, read fresh when the file changed (and, shared, every node's). */
  #registered(): OAuthClientRecord[] {
    const local = this.#fromFile();
    if (!this.shared) return local;
    const key = sharedIdentityKey("oauth_clients");
    const stored = this.shared.data.extensions[key];
    const known = Array.isArray(stored) ? (stored as OAuthClientRecord[]) : [];
    const missing = local.filter((c) => !known.some((k) => k.client_id === c.client_id));
    if (missing.length === 0) return known;
    return this.shared.update((data) => {
      const list = Array.isArray(data.extensions[key]) ? (data.extensions[key] as OAuthClientRecord[]) : [];
      list.push(...missing.filter((c) => !list.some((k) => k.client_id === c.client_id)).map((c) => structuredClone(c)));
      data.extensions[key] = list;
      return list;
    }, { extensions: [key] });
  }

  /** The clients of this node's file, read again when it changed. */
  #fromFile(): OAuthClientRecord[] {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(this.path).mtimeMs;
    } catch {
      return [];
    }
    if (this.cache?.mtimeMs !== mtimeMs) {
      const parsed = fileSchema.safeParse(JSON.parse(readFileSync(this.path, "utf8")));
      if (!parsed.success) throw new IdentityError("OVATION_ERR_IDENTITY_STORE_CORRUPT", { message: `${this.path} is not a client registry.` });
      this.cache = { mtimeMs, clients: parsed.data.clients };
    }
    return this.cache.clients;
  }

  /** The client with this id, or undefined. */
  find(clientId: string): OAuthClientRecord | undefined {
    return this.all().find((c) => c.client_id === clientId);
  }

  /**
   * Registers a client. Confidential clients get a secret (stored as SHA-256 only); public clients
   * (SPAs, native apps) have none and must use PKCE S256.
   */
  create(input: z.input<typeof newClientSchema>): CreatedClient {
    const parsed = newClientSchema.safeParse(input);
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (errors[issue.path.join(".") || "body"] ??= []).push(issue.message);
      const [field, messages] = Object.entries(errors)[0] ?? ["body", ["is invalid"]];
      throw new IdentityError("OVATION_ERR_IDENTITY_VALIDATION", { message: `The ${field} field ${messages[0]}.`, errors });
    }
    const { name, redirect_uris, public: isPublic } = parsed.data;
    const clientId = sha256Hex(randomSecret(16)).slice(0, 24);
    const secret = isPublic ? null : randomSecret(32, "ovcs_");
    const record: OAuthClientRecord = {
      client_id: clientId,
      name,
      secret_hash: secret === null ? null : sha256Hex(secret),
      redirect_uris,
      public: isPublic,
      created_at: timestamp(),
    };
    const clients = [...this.#fromFile(), record];
    mkdirSync(join(this.path, ".."), { recursive: true });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ version: 1, clients }, null, 2), { mode: 0o600 });
    renameSync(temp, this.path);
    this.cache = null;
    this.all();
    return { client_id: clientId, client_secret: secret, name, redirect_uris, public: isPublic };
  }

  /** The registered clients without their secret hashes. */
  list(): Omit<OAuthClientRecord, "secret_hash">[] {
    return this.all().map(({ secret_hash: _s, ...rest }) => ({ ...rest }));
  }
}
