import type { ChatChannel, NotifySub } from "@ovation/core/contracts";
import { platformNotification } from "@ovation/core/plugin-kit";

/**
 * Builds every notification the TikTok plugin emits, so the payload shape changes in one place:
 * the type's keys at the top of `event` (the documented NotifySub shape; stream events carry an
 * empty list), with the raw TikTok message kept in `ovation.platform_data`.
 */
export function tiktokNotification(
  type: string,
  id: string,
  createdAtMs: number,
  channel: ChatChannel,
  data: Record<string, unknown>,
  raw: unknown,
): NotifySub {
  return platformNotification({ platform: "tiktok", type, id, createdAt: createdAtMs, channel, data, raw });
}
