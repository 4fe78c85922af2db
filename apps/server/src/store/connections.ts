import { Store } from "./store.js";
import { timestamp } from "./records.js";
import type { ConnectionRecord } from "./records.js";

/** Extension key of the platform OAuth tokens in the store document. */
const TOKENS_KEY = "platform_tokens";

/**
 * OAuth tokens of a linked platform account, kept so a platform plugin can act for the streamer.
 * They must be usable, so they cannot be hashed: like the bot signing secrets they are only as safe
 * as the data directory, and they never appear in an API answer.
 */
export interface PlatformTokens {
  access_token: string | null;
  refresh_token: string | null;
  /** Access token expiry, ms since the epoch; 0 when unknown. */
  expires_at: number;
  scopes: string[];
  /** sha256 of the `OVATION_<PLATFORM>_REFRESH_TOKEN` these tokens grew from, when they came from the environment. */
  env_hash?: string;
}

/** Platform accounts linked to users. One platform account belongs to at most one user. */
export class ConnectionsRepository {
  readonly #tokens: { read(): Record<string, PlatformTokens>; update<R>(fn: (value: Record<string, PlatformTokens>) => R): R };

  constructor(private readonly store: Store) {
    this.#tokens = store.extension<Record<string, PlatformTokens>>(TOKENS_KEY, () => ({}));
  }

  /** Stores (replaces) the OAuth tokens of a connection, e.g. after a link or a refresh. */
  saveTokens(connectionId: number, tokens: PlatformTokens): void {
    this.#tokens.update((all) => {
      all[String(connectionId)] = { ...tokens, scopes: [...tokens.scopes] };
    });
  }

  /** The stored OAuth tokens of a connection, or null. */
  tokensOf(connectionId: number): PlatformTokens | null {
    const t = this.#tokens.read()[String(connectionId)];
    return t ? { ...t, scopes: [...t.scopes] } : null;
  }

  /** Links (or re-links, updating the username) a platform account to a user. */
  upsert(input: { user_id: number; platform: string; platform_user_id: string; username: string; avatar_url?: string | null }): ConnectionRecord {
    return this.store.update((data, touch) => {
      const now = timestamp();
      const existing = data.connections.find((c) => c.platform === input.platform && c.platform_user_id === input.platform_user_id);
      touch({ users: existing ? [existing.user_id, input.user_id] : [input.user_id] });
      if (existing) {
        Object.assign(existing, { user_id: input.user_id, username: input.username, avatar_url: input.avatar_url ?? existing.avatar_url, updated_at: now });
        return { ...existing };
      }
      const connection: ConnectionRecord = {
        id: Store.nextId(data, "connections"),
        user_id: input.user_id,
        platform: input.platform,
        platform_user_id: input.platform_user_id,
        username: input.username,
        avatar_url: input.avatar_url ?? null,
        created_at: now,
        updated_at: now,
      };
      data.connections.push(connection);
      return { ...connection };
    });
  }

  /** The connections of a user. */
  listForUser(userId: number): ConnectionRecord[] {
    return this.store.data.connections.filter((c) => c.user_id === userId).map((c) => ({ ...c }));
  }

  /** The connection of a platform account, or null. */
  findByPlatformId(platform: string, platformUserId: string): ConnectionRecord | null {
    const c = this.store.data.connections.find((x) => x.platform === platform && x.platform_user_id === platformUserId);
    return c ? { ...c } : null;
  }

  /** Unlinks a connection of a user; false when there was none. */
  remove(userId: number, id: number): boolean {
    return this.store.update((data) => {
      const index = data.connections.findIndex((c) => c.id === id && c.user_id === userId);
      if (index < 0) return false;
      data.connections.splice(index, 1);
      const tokens = data.extensions[TOKENS_KEY] as Record<string, PlatformTokens> | undefined;
      if (tokens) delete tokens[String(id)];
      return true;
    }, { users: [userId] });
  }
}
