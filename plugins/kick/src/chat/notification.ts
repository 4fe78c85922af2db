import type { ChatChannel, NotifySub } from "@ovation/core/contracts";
import { platformNotification } from "@ovation/core/plugin-kit";

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
  return platformNotification({ platform: "kick", type, id, createdAt, channel, data: params, raw });
}
