import { appendPointsHistory, pointsCurrency, pointsWallet } from "@ovation/core";
import type { CommandPoints } from "@ovation/core";
import type { Repositories } from "../store/repositories.js";

/**
 * The Ovation account a viewer's platform account is connected to, or null. A viewer who signed in
 * to Ovation and connected several platforms is one person for the loyalty points: one balance.
 */
export function linkedAccount(repos: Repositories, platform: string, platformUserId: string): number | null {
  return repos.connections.findByPlatformId(platform, platformUserId)?.user_id ?? null;
}

/**
 * How a command's `price` spends the loyalty points on this server: the same wallet the points
 * module pays (linked accounts), the channel's currency name and bot language for the refusal, and
 * each spend and refund in the points history.
 */
export function commandPoints(repos: Repositories): CommandPoints {
  return {
    wallet: (event) => pointsWallet(event.platform, event.user.platform_id, linkedAccount(repos, event.platform, event.user.platform_id)),
    language: (channel) => repos.botState.settings(Number(channel))?.language ?? "en",
    currency: (channel) => pointsCurrency(repos.kv, channel),
    spent: (channel, wallet, amount, command) =>
      appendPointsHistory(repos.kv, channel, [
        { at: new Date().toISOString(), reason: amount > 0 ? "price" : "refund", viewer: wallet, name: null, delta: -amount, balance: null, viewers: 1, by: `!${command}` },
      ]),
  };
}
