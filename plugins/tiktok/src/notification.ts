import type { ChatChannel, NotifySub } from "@ovation/core/contracts";

/**
 * Builds every notification the TikTok plugin emits, so the payload shape changes in one place:
 * the type's keys sit under `event.data` (today's NotifySub payload), with the raw TikTok message
 * kept in `event.platform_data`.
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
    event: { data, template: null, test: false, platform_data: { message: raw } },
  };
}
