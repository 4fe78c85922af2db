import { createHash } from "node:crypto";
import type { ChatChannel } from "@ovation/core";
import type { OvationServices } from "../services.js";
import type { PlatformTokens } from "../store/connections.js";

const sha256 = (value: string): string => createHash("sha256").update(value, "utf8").digest("hex");

/** The tokens a platform plugin starts from, and how its refreshes and account reach the store. */
export interface LinkedTokens {
  /** The Ovation user served. */
  userId: number;
  /** The refresh token to start from (stored link, or the environment's); undefined: none. */
  refreshToken: string | undefined;
  /** The stored access token and its expiry, when the stored tokens are used. */
  access: { accessToken: string; expiresAt: number } | null;
  scopes: string[];
  /** Records refreshed tokens (written once the connection is known). */
  refreshed(tokens: { accessToken: string | null; refreshToken: string | null; expiresAt: number; scopes?: string[] }): void;
  /** The plugin learned its account: links it to the user when needed and writes the latest tokens. */
  account(channel: ChatChannel): void;
}

/**
 * Where a platform plugin's OAuth tokens come from and go to: the user's connection of `platform`
 * (linked under Connections) or, for a first start without a link, `OVATION_<PLATFORM>_REFRESH_TOKEN`.
 * Every refresh is written to the connection's stored tokens, so a restart uses the newest ones; a
 * new environment refresh token (different from the one the stored tokens grew from) wins.
 */
export function linkedTokens(services: OvationServices, platform: string, settings: { user?: number | undefined; refreshToken?: string | undefined }): LinkedTokens {
  const { users, connections } = services.repos;
  const userId = settings.user ?? users.list()[0]?.id;
  if (userId === undefined) throw new Error(`OVATION_${platform.toUpperCase()}_USER: there is no user yet to serve`);
  const linked = connections.listForUser(userId).find((c) => c.platform === platform && connections.tokensOf(c.id)?.refresh_token);
  const stored = linked ? connections.tokensOf(linked.id) : null;
  const envHash = settings.refreshToken ? sha256(settings.refreshToken) : undefined;
  const useStored = stored !== null && stored.refresh_token !== null && (envHash === undefined || stored.env_hash === undefined || stored.env_hash === envHash);
  let connectionId = useStored && linked ? linked.id : null;
  let latest: PlatformTokens | null = null;
  const hash = useStored ? stored.env_hash : envHash;
  const persist = (): void => {
    if (connectionId !== null && latest !== null) connections.saveTokens(connectionId, latest);
  };
  return {
    userId,
    refreshToken: useStored ? (stored.refresh_token ?? undefined) : settings.refreshToken,
    access: useStored && stored.access_token ? { accessToken: stored.access_token, expiresAt: stored.expires_at } : null,
    scopes: stored?.scopes ?? [],
    refreshed(tokens) {
      latest = {
        access_token: tokens.accessToken,
        refresh_token: tokens.refreshToken,
        expires_at: tokens.expiresAt,
        scopes: tokens.scopes && tokens.scopes.length > 0 ? tokens.scopes : (stored?.scopes ?? []),
        ...(hash ? { env_hash: hash } : {}),
      };
      persist();
    },
    account(channel) {
      if (connectionId === null) {
        connectionId = connections.upsert({ user_id: userId, platform, platform_user_id: channel.platform_id, username: channel.username, avatar_url: channel.avatar_url || null }).id;
      }
      persist();
    },
  };
}
