/**
 * One stored oidc-provider artifact (session, grant, code, token...), kept under a key the identity
 * module derives from its id (identity/oidc/adapter.ts: never the raw id, which is a bearer secret).
 */
export interface OidcArtifact {
  /** The artifact without its `jti` (the caller holds the id and gets it put back). */
  payload: Record<string, unknown>;
  /** Epoch seconds after which the artifact is gone; null for artifacts that never expire. */
  expires_at: number | null;
  grant_id?: string;
  uid?: string;
  /** SHA-256 of the device flow's user code. */
  user_code?: string;
}

/**
 * Where oidc-provider artifacts live: the identity file, or PostgreSQL when OVATION_DATABASE_URL is
 * set. A storage only keeps rows; the rules (what key an id or JWT maps to, what "sign out
 * everywhere" removes) are the identity module's, written once over this interface. `now` is epoch
 * seconds: an artifact whose `expires_at` is at or before it is never returned.
 */
export interface OidcArtifactStorage {
  /** The live artifact of `model` under `key`. */
  get(model: string, key: string, now: number): Promise<OidcArtifact | undefined>;
  /** The first live artifact of `model` whose `uid` or `user_code` is `value`. */
  findBy(model: string, field: "uid" | "user_code", value: string, now: number): Promise<OidcArtifact | undefined>;
  /** Stores (or replaces) an artifact; drops every expired artifact on the way. */
  put(model: string, key: string, artifact: OidcArtifact, now: number): Promise<void>;
  /** Marks an artifact consumed at `at` (epoch seconds). */
  consume(model: string, key: string, at: number): Promise<void>;
  remove(model: string, key: string): Promise<void>;
  /** Removes every model's artifacts of a grant. */
  removeByGrant(grantId: string): Promise<void>;
  /** Removes the artifacts whose payload names `accountId`, of `models` only or of every model; returns how many went. */
  removeByAccount(accountId: string, models: readonly string[] | null): Promise<number>;
}
