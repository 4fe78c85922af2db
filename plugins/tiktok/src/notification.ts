import { EMPTY_PAYLOAD_TYPES } from "@ovation/core/contracts";
import type { ChatChannel, NotifySub } from "@ovation/core/contracts";

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
  return {
    subscription: { type, version: "1", condition: { platform: "tiktok", platform_id: channel.platform_id } },
    notification: { id: id.slice(0, 128), created_at: new Date(createdAtMs).toISOString() },
    event: (EMPTY_PAYLOAD_TYPES as readonly string[]).includes(type) ? [] : data,
    ovation: { template: null, test: false, platform_data: { message: raw } },
  };
}
