import type { PlatformAction, PlatformActionResult } from "@ovation/core/contracts";
import { TwitchError } from "../errors.js";
import type { HelixClient } from "../helix/client.js";
import { createPoll, endPoll, getChannelInformation, getPoll, getUsersByLogin, sendShoutout } from "../helix/endpoints.js";
import type { TwitchPoll } from "../helix/endpoints.js";

/** Twitch's own limits on polls (Create Poll). */
export const TWITCH_POLL_LIMITS = { titleLength: 60, choiceLength: 25, minChoices: 2, maxChoices: 5, minSeconds: 15, maxSeconds: 1800 } as const;

/** The Helix access an action runs with, for one channel. */
export interface ActionAccess {
  helix: HelixClient;
  broadcasterId: string;
  /** The user acting as moderator (the broadcaster on their own token, else the bot). */
  moderatorId: string;
  /** The token's scopes when known (a linked channel's validated token); null when Twitch alone can tell. */
  scopes: readonly string[] | null;
  /** True when the token is the broadcaster's own (polls need it). */
  broadcasterToken: boolean;
}

function unavailable(reason: string): PlatformActionResult {
  return { result: "unavailable", reason };
}

function pollData(poll: TwitchPoll): PlatformActionResult {
  const running = poll.status === "ACTIVE";
  return { result: "done", data: { poll_id: poll.id, status: running ? "running" : "ended", choices: poll.choices } };
}

/** Twitch's refusals that mean "not allowed here" (scope, role, limits, not live, not affiliate) rather than a fault. */
function refusal(err: unknown): PlatformActionResult | null {
  if (!(err instanceof TwitchError)) return null;
  const status = err.details.status;
  if (status === 400 || status === 401 || status === 403 || status === 429) return unavailable(err.message);
  return null;
}

/**
 * Twitch's own shoutouts and polls for the bot modules (the plugin contract's `platformActions`),
 * over Helix with the channel's token. Twitch's refusals (a missing scope, its shoutout limits of 2
 * minutes per channel and 60 minutes per streamer, a channel that is not live) come back as
 * `unavailable` with Twitch's reason; polls beyond Twitch's limits (2 to 5 choices of at most 25
 * characters, a title of 60, 15 s to 30 min) are refused before asking.
 */
export class TwitchPlatformActions {
  async perform(access: ActionAccess | null, action: PlatformAction): Promise<PlatformActionResult> {
    if (!access) return unavailable("this Twitch channel has no API token: link Twitch from the dashboard");
    try {
      switch (action.type) {
        case "channel_info":
          return await this.#channelInfo(access, action.username);
        case "shoutout":
          return await this.#shoutout(access, action.target_platform_id);
        case "poll_start":
          return await this.#pollStart(access, action.title, action.choices, action.duration_seconds);
        case "poll_end":
          return await this.#pollEnd(access, action.poll_id);
        case "poll_results":
          return pollData(await getPoll(access.helix, access.broadcasterId, action.poll_id));
        default:
          return unavailable("Twitch has no such action");
      }
    } catch (err) {
      const refused = refusal(err);
      if (refused) return refused;
      throw err;
    }
  }

  async #channelInfo(access: ActionAccess, username: string): Promise<PlatformActionResult> {
    if (!/^[A-Za-z0-9_]{1,25}$/.test(username)) return { result: "done", data: { found: false } };
    const [user] = await getUsersByLogin(access.helix, [username.toLowerCase()]);
    if (!user) return { result: "done", data: { found: false } };
    const channel = await getChannelInformation(access.helix, user.id);
    return {
      result: "done",
      data: {
        found: true,
        user_id: user.id,
        login: user.login,
        display_name: user.display_name || user.login,
        category: channel?.category ?? "",
        title: channel?.title ?? "",
        url: `https://twitch.tv/${user.login}`,
      },
    };
  }

  async #shoutout(access: ActionAccess, targetId: string): Promise<PlatformActionResult> {
    if (access.scopes && !access.scopes.includes("moderator:manage:shoutouts")) {
      return unavailable("Reconnect Twitch and allow shoutouts (scope moderator:manage:shoutouts)");
    }
    if (targetId === access.broadcasterId) return unavailable("Twitch does not let a channel shout itself out");
    // Twitch keeps its own limits (2 minutes per channel, 60 minutes per streamer) and answers 429
    // with the reason, which comes back as `unavailable`.
    await sendShoutout(access.helix, access.broadcasterId, targetId, access.moderatorId);
    return { result: "done" };
  }

  async #pollStart(access: ActionAccess, title: string, choices: readonly string[], seconds: number): Promise<PlatformActionResult> {
    if (!access.broadcasterToken) return unavailable("Twitch polls need the broadcaster's own token: link Twitch from the dashboard");
    if (access.scopes && !access.scopes.includes("channel:manage:polls")) return unavailable("Reconnect Twitch and allow polls (scope channel:manage:polls)");
    const L = TWITCH_POLL_LIMITS;
    if (Array.from(title).length > L.titleLength) return unavailable(`Twitch poll titles take at most ${L.titleLength} characters`);
    if (choices.length < L.minChoices || choices.length > L.maxChoices) return unavailable(`Twitch polls take ${L.minChoices} to ${L.maxChoices} choices`);
    if (choices.some((c) => Array.from(c).length > L.choiceLength)) return unavailable(`Twitch poll choices take at most ${L.choiceLength} characters`);
    if (seconds < L.minSeconds || seconds > L.maxSeconds) return unavailable(`Twitch polls last ${L.minSeconds} s to ${L.maxSeconds / 60} min`);
    const poll = await createPoll(access.helix, access.broadcasterId, title, choices, seconds);
    return { result: "done", data: { poll_id: poll.id } };
  }

  async #pollEnd(access: ActionAccess, pollId: string): Promise<PlatformActionResult> {
    try {
      return pollData(await endPoll(access.helix, access.broadcasterId, pollId));
    } catch (err) {
      // A poll Twitch ended by itself (its time ran out) cannot be ended again: read its result.
      if (err instanceof TwitchError && err.details.status === 400) return pollData(await getPoll(access.helix, access.broadcasterId, pollId));
      throw err;
    }
  }
}
