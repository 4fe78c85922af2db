import { z } from "zod";
import type { ChatEvent } from "../../chat/event.js";
import { PERMISSION_LEVELS, permissionLevelOf } from "../permission-levels.js";

/** Viewer groups a rule (or a giveaway restriction) can name. */
export const VIEWER_GROUPS = ["broadcaster", "moderator", "vip", "subscriber"] as const;
/** One of {@link VIEWER_GROUPS}. */
export type ViewerGroup = (typeof VIEWER_GROUPS)[number];

/** A list of viewer groups, each named once. */
export const viewerGroupsSchema = z
  .array(z.enum(VIEWER_GROUPS, { error: `must be one of ${VIEWER_GROUPS.join(", ")}` }))
  .max(VIEWER_GROUPS.length)
  .refine((groups) => new Set(groups).size === groups.length, "must name each group once");

/**
 * The groups the sender of a chat event belongs to, from badges. Each group is its own: a moderator
 * is not also a VIP unless they wear the VIP badge (exemptions name each group they spare). The
 * channel's own account is the broadcaster.
 */
export function viewerGroupsOf(event: Pick<ChatEvent, "user" | "channel">): Set<ViewerGroup> {
  const groups = new Set<ViewerGroup>();
  if (permissionLevelOf(event) === PERMISSION_LEVELS.broadcaster) groups.add("broadcaster");
  for (const badge of event.user.badges) {
    const type = badge.type.toLowerCase();
    if (type === "moderator") groups.add("moderator");
    else if (type === "vip") groups.add("vip");
    else if (type === "subscriber" || type === "founder" || type === "member") groups.add("subscriber");
  }
  return groups;
}

/** True when the sender belongs to one of `groups`. */
export function isInGroups(event: Pick<ChatEvent, "user" | "channel">, groups: readonly ViewerGroup[]): boolean {
  if (groups.length === 0) return false;
  const mine = viewerGroupsOf(event);
  return groups.some((group) => mine.has(group));
}
