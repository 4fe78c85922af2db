import { EMPTY_PAYLOAD_TYPES } from "@ovation/core/contracts";
import type { ChatChannel, NotifySub } from "@ovation/core/contracts";
import { toMicrosecondIso } from "@ovation/plugin-youtube";

/**
 * The one place the Kick plugin builds a NotifySub notification: the catalog type, the platform's
 * event id, and the type's parameters at the top of `event` (the documented NotifySub shape; the
 * stream and channel-update types carry an empty list), with the raw Kick payload in
 * `ovation.platform_data`.
 */
export function kickNotification(
  type: string,
  id: string,
  createdAt: string | null | undefined,
  channel: ChatChannel,
  params: Record<string, unknown>,
  raw: unknown,
): NotifySub {
  return {
    subscription: { type, version: "1", condition: { platform: "kick", platform_id: channel.platform_id } },
    notification: { id: id.slice(0, 128), created_at: toMicrosecondIso(createdAt ?? new Date().toISOString()) },
    event: (EMPTY_PAYLOAD_TYPES as readonly string[]).includes(type) ? [] : params,
    ovation: { template: null, test: false, platform_data: { message: raw } },
  };
}
