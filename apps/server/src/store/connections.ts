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

/**
 * A change of a connection, as the change feed reports it: `linked` (new link, or re-link to the
 * same or another user), `tokens` (new tokens from a link; not a plugin's own refresh write-back),
 * `bot` (bot switched on or off), `removed` (unlinked, or its account deleted).
 */
export interface ConnectionChange {
  kind: "linked" | "tokens" | "bot" | "removed";
  connection: ConnectionRecord;
}

/** Who stores tokens: a link (fires the change feed) or a plugin's refresh (does not: it serves them already). */
export type TokensOrigin = "link" | "refresh";

/** Whether the bot serves a connection (absent in old data: on). */
export const botEnabled = (c: Pick<ConnectionRecord, "bot_enabled">): boolean => c.bot_enabled !== false;

/** Platform accounts linked to users. One platform account belongs to at most one user. */
export class ConnectionsRepository {
  readonly #tokens: { read(): Record<string, PlatformTokens>; update<R>(fn: (value: Record<string, PlatformTokens>) => R): R };
  readonly #listeners = new Set<(change: ConnectionChange) => void>();

  constructor(private readonly store: Store) {
    this.#tokens = store.extension<Record<string, PlatformTokens>>(TOKENS_KEY, () => ({}));
  }

  /** Listens to changes of connections (this node's); returns the function that stops listening. */
  onChange(listener: (change: ConnectionChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(kind: ConnectionChange["kind"], connection: ConnectionRecord): void {
    for (const listener of this.#listeners) {
      try {
        listener({ kind, connection: { ...connection } });
      } catch {
        // a listener's failure is its own; the change is stored
      }
    }
  }

  /** Stores (replaces) the OAuth tokens of a connection, e.g. after a link (`link`, fires the change feed) or a refresh. */
  saveTokens(connectionId: number, tokens: PlatformTokens, origin: TokensOrigin = "link"): void {
    this.#tokens.update((all) => {
      all[String(connectionId)] = { ...tokens, scopes: [...tokens.scopes] };
    });
    if (origin === "link") {
      const connection = this.get(connectionId);
      if (connection) this.#emit("tokens", connection);
    }
  }

  /** The connection of that id, or null. */
  get(connectionId: number): ConnectionRecord | null {
    const c = this.store.data.connections.find((x) => x.id === connectionId);
    return c ? { ...c } : null;
  }

  /** Every connection of a platform (the channels a plugin may serve). */
  listForPlatform(platform: string): ConnectionRecord[] {
    return this.store.data.connections.filter((c) => c.platform === platform).map((c) => ({ ...c }));
  }

  /** Switches the bot on or off for a connection; the updated connection, or null when there is none. */
  setBotEnabled(connectionId: number, on: boolean): ConnectionRecord | null {
    const updated = this.store.update((data, touch) => {
      const c = data.connections.find((x) => x.id === connectionId);
      if (!c) return null;
      touch({ users: [c.user_id] });
      c.bot_enabled = on;
      c.updated_at = timestamp();
      return { ...c };
    });
    if (updated) this.#emit("bot", updated);
    return updated;
  }

  /** The stored OAuth tokens of a connection, or null. */
  tokensOf(connectionId: number): PlatformTokens | null {
    const t = this.#tokens.read()[String(connectionId)];
    return t ? { ...t, scopes: [...t.scopes] } : null;
  }

  /** Links (or re-links, updating the username) a platform account to a user. */
  upsert(input: { user_id: number; platform: string; platform_user_id: string; username: string; avatar_url?: string | null }): ConnectionRecord {
    const connection = this.#upsert(input);
    this.#emit("linked", connection);
    return connection;
  }

  #upsert(input: { user_id: number; platform: string; platform_user_id: string; username: string; avatar_url?: string | null }): ConnectionRecord {
    return this.store.update((data, touch) => {
      const now = timestamp();
      const existing = data.connections.find((c) => c.platform === input.platform && c.platform_user_id === input.platform_user_id);
      touch({ users: existing ? [existing.user_id, input.user_id] : [input.user_id] });
      if (existing) {
        Object.assign(existing, { user_id: input.user_id, username: input.username, avatar_url: input.avatar_url ?? existing.avatar_url, updated_at: now });
        return { ...existing };
      }
      // Linked again after an unlink: a new connection, with the bot on.
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

  /**
   * Unlinks a connection and drops its tokens: `remove(connectionId)`, or `remove(userId, id)` which
   * only removes a connection of that user. False when there was none.
   */
  remove(userIdOrConnectionId: number, id?: number): boolean {
    const connectionId = id ?? userIdOrConnectionId;
    const found = this.get(connectionId);
    if (!found || (id !== undefined && found.user_id !== userIdOrConnectionId)) return false;
    const removed = this.store.update((data) => {
      const index = data.connections.findIndex((c) => c.id === connectionId);
      if (index < 0) return false;
      data.connections.splice(index, 1);
      const tokens = data.extensions[TOKENS_KEY] as Record<string, PlatformTokens> | undefined;
      if (tokens) delete tokens[String(connectionId)];
      return true;
    }, { users: [found.user_id] });
    if (removed) this.#emit("removed", found);
    return removed;
  }
}
