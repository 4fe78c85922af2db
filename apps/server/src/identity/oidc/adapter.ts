import type { Adapter, AdapterPayload } from "oidc-provider";
import type { ClientRegistry } from "../clients.js";
import type { Clock } from "../clock.js";
import { sha256Hex } from "../secrets.js";
import type { IdentityStore, OAuthClientRecord, OidcEntry } from "../store.js";
import type { AccessTokenJwt } from "./access-token-jwt.js";

/** The models whose tokens reach clients as JWTs (see access-token-jwt.ts). */
const JWT_MODELS = new Set(["AccessToken", "ClientCredentials"]);

/**
 * The key an artifact id is stored under: the SHA-256 of the id, or for an access token presented
 * as a JWT, the `jti` of that JWT once its signature is verified (it is the SHA-256 of the inner id).
 * Null when a JWT does not verify. Every storage adapter (lowdb here, others later) keys by this.
 */
export async function storageKey(model: string, id: string, jwt: AccessTokenJwt | undefined): Promise<string | null> {
  if (jwt !== undefined && JWT_MODELS.has(model) && id.includes(".")) return jwt.storageKeyOf(id);
  return sha256Hex(id);
}

/** oidc-provider client metadata for a registered client. */
export function clientMetadata(client: OAuthClientRecord): AdapterPayload {
  return {
    client_id: client.client_id,
    client_name: client.name,
    redirect_uris: client.redirect_uris,
    response_types: ["code"],
    grant_types: client.public ? ["authorization_code", "refresh_token"] : ["authorization_code", "refresh_token", "client_credentials"],
    token_endpoint_auth_method: client.public ? "none" : "client_secret_basic",
    ...(client.secret_hash === null ? {} : { client_secret: client.secret_hash }),
  };
}

/**
 * oidc-provider storage in the identity lowdb file. Every artifact is stored under the SHA-256 of
 * its id (tokens, codes and session ids are bearer secrets), without its `jti`, which `find` puts
 * back from the id the caller already holds. Sessions found by uid come back without their id:
 * oidc-provider only reads those (account and grants), never saves them. Expired entries are
 * dropped on write.
 */
export class LowdbOidcAdapter implements Adapter {
  constructor(
    private readonly name: string,
    private readonly store: IdentityStore,
    private readonly clock: Clock,
    private readonly clients: ClientRegistry,
    private readonly jwt?: AccessTokenJwt,
  ) {}

  private get table(): Record<string, OidcEntry> {
    const all = this.store.data.oidc;
    let table = all[this.name];
    if (table === undefined) {
      table = {};
      all[this.name] = table;
    }
    return table;
  }

  private nowSeconds(): number {
    return Math.floor(this.clock() / 1000);
  }

  private live(entry: OidcEntry | undefined): OidcEntry | undefined {
    if (entry === undefined) return undefined;
    if (entry.expires_at !== null && entry.expires_at <= this.nowSeconds()) return undefined;
    return entry;
  }

  private purgeExpired(): void {
    const now = this.nowSeconds();
    for (const table of Object.values(this.store.data.oidc)) {
      for (const [key, entry] of Object.entries(table)) {
        if (entry.expires_at !== null && entry.expires_at <= now) delete table[key];
      }
    }
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const { jti: _jti, ...rest } = payload;
    const entry: OidcEntry = {
      payload: rest as Record<string, unknown>,
      expires_at: expiresIn ? this.nowSeconds() + expiresIn : null,
    };
    if (typeof payload.grantId === "string") entry.grant_id = payload.grantId;
    if (typeof payload.uid === "string") entry.uid = payload.uid;
    if (typeof payload.userCode === "string") entry.user_code = sha256Hex(payload.userCode);
    this.purgeExpired();
    this.table[sha256Hex(id)] = entry;
    await this.store.save();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (this.name === "Client") {
      const client = this.clients.find(id);
      return client === undefined ? undefined : clientMetadata(client);
    }
    const key = await storageKey(this.name, id, this.jwt);
    const entry = key === null ? undefined : this.live(this.table[key]);
    return entry === undefined ? undefined : ({ ...entry.payload, jti: id } as AdapterPayload);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const wanted = sha256Hex(userCode);
    const entry = Object.values(this.table).find((e) => e.user_code === wanted);
    return this.live(entry)?.payload as AdapterPayload | undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const entry = Object.values(this.table).find((e) => e.uid === uid);
    return this.live(entry)?.payload as AdapterPayload | undefined;
  }

  async consume(id: string): Promise<void> {
    const entry = this.table[sha256Hex(id)];
    if (entry !== undefined) {
      entry.payload.consumed = this.nowSeconds();
      await this.store.save();
    }
  }

  async destroy(id: string): Promise<void> {
    const key = await storageKey(this.name, id, this.jwt);
    if (key !== null && this.table[key] !== undefined) {
      delete this.table[key];
      await this.store.save();
    }
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    let changed = false;
    for (const table of Object.values(this.store.data.oidc)) {
      for (const [key, entry] of Object.entries(table)) {
        if (entry.grant_id === grantId) {
          delete table[key];
          changed = true;
        }
      }
    }
    if (changed) await this.store.save();
  }
}

/**
 * Removes the stored authorization-server artifacts of an account: only its sessions (`Session`,
 * signing every browser out of the authorization server) or everything (sessions, grants, codes
 * and tokens; account deletion). Returns how many entries went.
 */
export async function removeAccountArtifacts(store: IdentityStore, accountId: number, what: "sessions" | "everything"): Promise<number> {
  const account = String(accountId);
  let removed = 0;
  for (const [model, table] of Object.entries(store.data.oidc)) {
    if (what === "sessions" && model !== "Session") continue;
    for (const [key, entry] of Object.entries(table)) {
      if (entry.payload.accountId === account) {
        delete table[key];
        removed += 1;
      }
    }
  }
  if (removed > 0) await store.save();
  return removed;
}
