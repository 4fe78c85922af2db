import type { ChatChannel, NotifySub } from "@ovation/core/contracts";
import { toMicrosecondIso } from "@ovation/plugin-youtube";

/**
 * The one place the Kick plugin builds a NotifySub notification: the catalog type, the platform's
 * event id, and the type's parameters. Today's payload nests the parameters under `event.data`
 * beside the raw Kick payload in `event.platform_data`; a change of that shape is made here only.
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
    event: { data: params, template: null, test: false, platform_data: { message: raw } },
  };
}
