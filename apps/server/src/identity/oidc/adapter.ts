import type { Adapter, AdapterPayload } from "oidc-provider";
import { definedKeys } from "@ovation/core";
import type { OidcArtifact, OidcArtifactStorage } from "../../store/oidc-artifact-storage.js";
import type { ClientRegistry } from "../clients.js";
import type { Clock } from "../clock.js";
import { sha256Hex } from "../../crypto/secrets.js";
import type { OAuthClientRecord } from "../identity-store.js";
import type { AccessTokenJwt } from "./access-token-jwt.js";

/** The models whose tokens reach clients as JWTs (see access-token-jwt.ts). */
const JWT_MODELS = new Set(["AccessToken", "ClientCredentials"]);

/**
 * The key an artifact id is stored under: the SHA-256 of the id, or for an access token presented
 * as a JWT, the `jti` of that JWT once its signature is verified (it is the SHA-256 of the inner id).
 * Null when a JWT does not verify. Every storage (identity file, PostgreSQL) is keyed by this.
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
    ...definedKeys({ post_logout_redirect_uris: client.post_logout_redirect_uris }),
  };
}

/**
 * The oidc-provider adapter, over either storage (identity file or PostgreSQL). Every artifact is
 * stored under `storageKey` of its id (tokens, codes and session ids are bearer secrets), without
 * its `jti`, which `find` puts back from the id the caller already holds; user codes are hashed
 * too. Sessions found by uid come back without their id: oidc-provider only reads those (account
 * and grants), never saves them. Expired artifacts are never returned and are dropped on write.
 * Clients come from the client registry, never from the storage.
 */
export class OidcAdapter implements Adapter {
  constructor(
    private readonly name: string,
    private readonly storage: OidcArtifactStorage,
    private readonly clock: Clock,
    private readonly clients: Pick<ClientRegistry, "find">,
    private readonly jwt?: AccessTokenJwt,
    private readonly onGrantRevoked?: (grantId: string) => void,
  ) {}

  private nowSeconds(): number {
    return Math.floor(this.clock() / 1000);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const { jti: _jti, ...rest } = payload;
    const now = this.nowSeconds();
    const artifact: OidcArtifact = { payload: rest as Record<string, unknown>, expires_at: expiresIn ? now + expiresIn : null };
    if (typeof payload.grantId === "string") artifact.grant_id = payload.grantId;
    if (typeof payload.uid === "string") artifact.uid = payload.uid;
    if (typeof payload.userCode === "string") artifact.user_code = sha256Hex(payload.userCode);
    await this.storage.put(this.name, sha256Hex(id), artifact, now);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (this.name === "Client") {
      const client = this.clients.find(id);
      return client === undefined ? undefined : clientMetadata(client);
    }
    const key = await storageKey(this.name, id, this.jwt);
    const entry = key === null ? undefined : await this.storage.get(this.name, key, this.nowSeconds());
    return entry === undefined ? undefined : ({ ...entry.payload, jti: id } as AdapterPayload);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return (await this.storage.findBy(this.name, "user_code", sha256Hex(userCode), this.nowSeconds()))?.payload as AdapterPayload | undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return (await this.storage.findBy(this.name, "uid", uid, this.nowSeconds()))?.payload as AdapterPayload | undefined;
  }

  async consume(id: string): Promise<void> {
    await this.storage.consume(this.name, sha256Hex(id), this.nowSeconds());
  }

  async destroy(id: string): Promise<void> {
    const key = await storageKey(this.name, id, this.jwt);
    if (key !== null) await this.storage.remove(this.name, key);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.storage.removeByGrant(grantId);
    // oidc-provider revokes a grant model by model; its access tokens are what sockets were opened with.
    if (this.name === "AccessToken") this.onGrantRevoked?.(grantId);
  }
}

/**
 * Removes the stored authorization-server artifacts of an account: only its sessions (`Session`,
 * signing every browser out of the authorization server) or everything (sessions, grants, codes
 * and tokens; account deletion). Returns how many entries went.
 */
export async function removeAccountArtifacts(storage: OidcArtifactStorage, accountId: number, what: "sessions" | "everything"): Promise<number> {
  return storage.removeByAccount(String(accountId), what === "sessions" ? ["Session"] : null);
}
