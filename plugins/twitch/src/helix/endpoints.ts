import type { PlatformLookups } from "@ovation/core/contracts";
import { TWITCH_ERROR_CODES, TwitchError } from "../errors.js";
import type { HelixClient } from "./client.js";

/** A Twitch user as the plugin needs it. */
export interface TwitchUser {
  id: string;
  login: string;
  display_name: string;
  type: string;
  broadcaster_type: string;
  description: string;
  profile_image_url: string;
  view_count: number;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function toUser(raw: Record<string, unknown>): TwitchUser {
  return {
    id: text(raw.id),
    login: text(raw.login),
    display_name: text(raw.display_name),
    type: text(raw.type),
    broadcaster_type: text(raw.broadcaster_type),
    description: text(raw.description),
    profile_image_url: text(raw.profile_image_url),
    view_count: typeof raw.view_count === "number" ? raw.view_count : 0,
  };
}

/** GET /users?login=...: the users of these logins (at most 100 per call). */
export async function getUsersByLogin(helix: HelixClient, logins: readonly string[]): Promise<TwitchUser[]> {
  const users: TwitchUser[] = [];
  for (let i = 0; i < logins.length; i += 100) {
    users.push(...(await helix.list("/users", { login: logins.slice(i, i + 100) })).map(toUser));
  }
  return users;
}

/** GET /users: the user the access token belongs to. */
export async function getTokenUser(helix: HelixClient): Promise<TwitchUser | null> {
  const [first] = await helix.list("/users");
  return first ? toUser(first) : null;
}

/** POST /eventsub/subscriptions with the WebSocket transport. */
export async function createEventSubSubscription(
  helix: HelixClient,
  subscription: { type: string; version: string; condition: Record<string, string> },
  sessionId: string,
): Promise<void> {
  await helix.call("POST", "/eventsub/subscriptions", {}, { ...subscription, transport: { method: "websocket", session_id: sessionId } });
}

/** POST /chat/announcements (colour `primary`, `blue`, `green`, `orange` or `purple`). */
export async function sendAnnouncement(helix: HelixClient, broadcasterId: string, moderatorId: string, message: string, color = "primary"): Promise<void> {
  await helix.call("POST", "/chat/announcements", { broadcaster_id: broadcasterId, moderator_id: moderatorId }, { message, color });
}

/** DELETE /moderation/chat: deletes one message. */
export async function deleteChatMessage(helix: HelixClient, broadcasterId: string, moderatorId: string, messageId: string): Promise<void> {
  await helix.call("DELETE", "/moderation/chat", { broadcaster_id: broadcasterId, moderator_id: moderatorId, message_id: messageId });
}

/** POST /moderation/bans with a duration: a timeout. */
export async function timeoutUser(
  helix: HelixClient,
  broadcasterId: string,
  moderatorId: string,
  userId: string,
  seconds: number,
  reason: string | null,
): Promise<void> {
  await helix.call(
    "POST",
    "/moderation/bans",
    { broadcaster_id: broadcasterId, moderator_id: moderatorId },
    { data: { user_id: userId, duration: seconds, ...(reason ? { reason } : {}) } },
  );
}

/** Bans a user from the channel (`POST /moderation/bans` without a duration; scope moderator:manage:banned_users). */
export async function banUser(helix: HelixClient, broadcasterId: string, moderatorId: string, userId: string, reason: string | null): Promise<void> {
  await helix.call("POST", "/moderation/bans", { broadcaster_id: broadcasterId, moderator_id: moderatorId }, { data: { user_id: userId, ...(reason ? { reason } : {}) } });
}

/** The `user()` and `channel()` template lookups over Helix; null when Twitch knows no such user/channel. */
export function helixLookups(helix: HelixClient): PlatformLookups {
  return {
    async user(login) {
      if (!/^[A-Za-z0-9_]{1,25}$/.test(login)) return null;
      const [user] = await getUsersByLogin(helix, [login.toLowerCase()]);
      if (!user) return null;
      return {
        id: user.id,
        name: user.display_name || user.login,
        type: user.broadcaster_type || user.type,
        description: user.description,
        view_count: user.view_count,
      };
    },
    async channel(id) {
      if (!/^\d{1,20}$/.test(id)) return null;
      const [raw] = await helix.list("/channels", { broadcaster_id: id });
      if (!raw) return null;
      return {
        id: text(raw.broadcaster_id),
        name: text(raw.broadcaster_name),
        url: `https://twitch.tv/${text(raw.broadcaster_login)}`,
        language: text(raw.broadcaster_language),
        title: text(raw.title),
        game: text(raw.game_name),
      };
    },
  };
}

/** A channel's information (`GET /channels`): what it streams and its title; null when there is none. */
export async function getChannelInformation(helix: HelixClient, broadcasterId: string): Promise<{ login: string; name: string; category: string; title: string } | null> {
  const [raw] = await helix.list("/channels", { broadcaster_id: broadcasterId });
  if (!raw) return null;
  return { login: text(raw.broadcaster_login), name: text(raw.broadcaster_name), category: text(raw.game_name), title: text(raw.title) };
}

/** `POST /chat/shoutouts` (scope moderator:manage:shoutouts; Twitch answers 204). */
export async function sendShoutout(helix: HelixClient, fromId: string, toId: string, moderatorId: string): Promise<void> {
  await helix.call("POST", "/chat/shoutouts", { from_broadcaster_id: fromId, to_broadcaster_id: toId, moderator_id: moderatorId });
}

/** A Twitch poll as the plugin reads it. */
export interface TwitchPoll {
  id: string;
  /** `ACTIVE`, `COMPLETED`, `TERMINATED`, `ARCHIVED`, `MODERATED`, `INVALID`. */
  status: string;
  choices: { title: string; votes: number }[];
}

function toPoll(raw: Record<string, unknown> | undefined): TwitchPoll | null {
  if (!raw || typeof raw.id !== "string") return null;
  const choices = Array.isArray(raw.choices) ? raw.choices : [];
  return {
    id: raw.id,
    status: text(raw.status),
    choices: choices.map((c: unknown) => {
      const choice = (c ?? {}) as Record<string, unknown>;
      return { title: text(choice.title), votes: typeof choice.votes === "number" ? choice.votes : 0 };
    }),
  };
}

function firstPoll(body: unknown, what: string): TwitchPoll {
  const data = body !== null && typeof body === "object" && Array.isArray((body as { data?: unknown }).data) ? (body as { data: Record<string, unknown>[] }).data : [];
  const poll = toPoll(data[0]);
  if (!poll) throw new TwitchError(TWITCH_ERROR_CODES.helix, `Helix ${what} answered without a poll`);
  return poll;
}

/** `POST /polls` (scope channel:manage:polls, the broadcaster's own token). */
export async function createPoll(helix: HelixClient, broadcasterId: string, title: string, choices: readonly string[], durationSeconds: number): Promise<TwitchPoll> {
  return firstPoll(await helix.call("POST", "/polls", {}, { broadcaster_id: broadcasterId, title, choices: choices.map((c) => ({ title: c })), duration: durationSeconds }), "POST /polls");
}

/** `PATCH /polls` with status `TERMINATED`: ends the poll, its results stay visible on Twitch. */
export async function endPoll(helix: HelixClient, broadcasterId: string, pollId: string): Promise<TwitchPoll> {
  return firstPoll(await helix.call("PATCH", "/polls", {}, { broadcaster_id: broadcasterId, id: pollId, status: "TERMINATED" }), "PATCH /polls");
}

/** `GET /polls?id=`: one poll with its votes. */
export async function getPoll(helix: HelixClient, broadcasterId: string, pollId: string): Promise<TwitchPoll> {
  return firstPoll(await helix.call("GET", "/polls", { broadcaster_id: broadcasterId, id: pollId }), "GET /polls");
}
