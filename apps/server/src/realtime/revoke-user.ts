import type { OvationServices } from "../services.js";

/**
 * After an account is deleted: gives each of its browser sources a new, never-disclosed access
 * token (the old page, config and socket addresses stop working at once) and closes every socket
 * of the user on every namespace. Called by the identity module's `onAccountDeleted` hook.
 */
export function revokeUserAccess(services: Pick<OvationServices, "repos" | "hub" | "logger">, userId: number): void {
  const sources = services.repos.browserSources.listForUser(userId);
  for (const source of sources) services.repos.browserSources.regenerate(userId, source.id);
  services.hub.disconnectUser(userId);
  services.logger.info({ userId, browserSources: sources.length }, "account deleted: browser-source tokens revoked and sockets closed");
}
