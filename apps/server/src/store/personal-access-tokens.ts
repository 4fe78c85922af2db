import { randomBytes } from "node:crypto";
import { sha256Hex } from "../crypto/secrets.js";
import { Store } from "./store.js";
import { timestamp } from "./records.js";
import type { PersonalAccessTokenRecord } from "./records.js";

/** Prefix of every personal access token, so leaked tokens are easy to spot and to route. */
export const PAT_PREFIX = "ovpat_";
/** Personal access tokens live six months (the reference's lifetime) and are not refreshable. */
export const PAT_LIFETIME_MONTHS = 6;

/** Personal access tokens: the raw token is returned once by `create`; only its hash is kept. */
export class PersonalAccessTokensRepository {
  readonly #revokedListeners = new Set<(record: PersonalAccessTokenRecord) => void>();

  constructor(private readonly store: Store) {}

  /** Calls `listener` after each revocation on this node (the host closes the sockets opened with the token); returns an unsubscribe. */
  onRevoked(listener: (record: PersonalAccessTokenRecord) => void): () => void {
    this.#revokedListeners.add(listener);
    return () => this.#revokedListeners.delete(listener);
  }

  /**
   * Issues a token `ovpat_<id>_<secret>` and returns the record together with the raw token.
   * It lives `PAT_LIFETIME_MONTHS`, or `lifetime_ms` when given (short-lived session tokens).
   */
  create(input: { user_id: number; name: string; scopes: readonly string[]; now?: Date; lifetime_ms?: number }): {
    record: PersonalAccessTokenRecord;
    token: string;
  } {
    return this.store.update((data) => {
      const id = Store.nextId(data, "personal_access_tokens");
      const token = `${PAT_PREFIX}${id}_${randomBytes(32).toString("base64url")}`;
      const now = input.now ?? new Date();
      const expires = new Date(now);
      if (input.lifetime_ms === undefined) expires.setUTCMonth(expires.getUTCMonth() + PAT_LIFETIME_MONTHS);
      else expires.setTime(now.getTime() + input.lifetime_ms);
      const record: PersonalAccessTokenRecord = {
        id,
        user_id: input.user_id,
        name: input.name,
        scopes: [...new Set(input.scopes)],
        token_hash: sha256Hex(token),
        created_at: timestamp(now),
        expires_at: timestamp(expires),
        revoked_at: null,
      };
      data.personal_access_tokens.push(record);
      return { record: { ...record, scopes: [...record.scopes] }, token };
    }, { users: [input.user_id] });
  }

  /** The record with this id, or null. */
  get(id: number): PersonalAccessTokenRecord | null {
    const r = this.store.data.personal_access_tokens.find((t) => t.id === id);
    return r ? { ...r, scopes: [...r.scopes] } : null;
  }

  /** The tokens of a user (hashes included, never raw tokens). */
  listForUser(userId: number): PersonalAccessTokenRecord[] {
    return this.store.data.personal_access_tokens.filter((t) => t.user_id === userId).map((t) => ({ ...t, scopes: [...t.scopes] }));
  }

  /** Revokes a token; false when it does not exist or is already revoked. */
  revoke(id: number): boolean {
    const revoked = this.store.update((data, touch) => {
      const r = data.personal_access_tokens.find((t) => t.id === id);
      if (!r || r.revoked_at !== null) return null;
      r.revoked_at = timestamp();
      touch({ users: [r.user_id] });
      return { ...r, scopes: [...r.scopes] };
    });
    if (revoked === null) return false;
    for (const listener of this.#revokedListeners) listener(revoked);
    return true;
  }
}
