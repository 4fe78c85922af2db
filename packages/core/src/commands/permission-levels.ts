import type { ChatEvent } from "../chat/event.js";

/**
 * Who may run a command, as the integer stored in `permissions`: a caller whose level is at least
 * the command's may run it. Levels only grow: a moderator may run subscriber commands.
 */
export const PERMISSION_LEVELS = {
  everyone: 0,
  subscriber: 1,
  vip: 2,
  moderator: 3,
  broadcaster: 4,
} as const;

/** A level name of {@link PERMISSION_LEVELS}. */
export type PermissionLevelName = keyof typeof PERMISSION_LEVELS;

/** Badge types that give a level (`founder` is Twitch's early subscriber badge; `owner` YouTube's). */
const BADGE_LEVELS: Readonly<Record<string, number>> = {
  subscriber: PERMISSION_LEVELS.subscriber,
  founder: PERMISSION_LEVELS.subscriber,
  member: PERMISSION_LEVELS.subscriber,
  vip: PERMISSION_LEVELS.vip,
  moderator: PERMISSION_LEVELS.moderator,
  broadcaster: PERMISSION_LEVELS.broadcaster,
  owner: PERMISSION_LEVELS.broadcaster,
};

/** The caller's level from the badges of a chat event; the channel's own account is always broadcaster. */
export function permissionLevelOf(event: Pick<ChatEvent, "user" | "channel">): number {
  if (event.user.platform_id === event.channel.platform_id) return PERMISSION_LEVELS.broadcaster;
  let level: number = PERMISSION_LEVELS.everyone;
  for (const badge of event.user.badges) {
    const badgeLevel = BADGE_LEVELS[badge.type.toLowerCase()];
    if (badgeLevel !== undefined && badgeLevel > level) level = badgeLevel;
  }
  return level;
}
