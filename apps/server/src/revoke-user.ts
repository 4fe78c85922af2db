import type { OvationServices } from "./services.js";

/**
 * After an account is deleted: gives each of its browser sources a new, never-disclosed access
 * token (the old page, config and socket addresses stop working at once), closes every socket of
 * the user on every namespace deletes the user's uploaded media (their addresses answer 404) and drops the roles it held or granted as a manager.
 * Called by the identity module's `onAccountDeleted` hook.
 */
export async function revokeUserAccess(services: Pick<OvationServices, "repos" | "hub" | "media" | "logger">, userId: number): Promise<void> {
  const sources = services.repos.browserSources.listForUser(userId);
  for (const source of sources) services.repos.browserSources.regenerate(userId, source.id);
  services.repos.managers.forgetUser(userId);
  services.hub.disconnectUser(userId);
  await services.media.deleteUser(userId);
  services.logger.info({ userId, browserSources: sources.length }, "account deleted: browser-source tokens revoked, sockets closed, media deleted");
}
