import type { ChatChannel } from "../chat/event.js";
import { EMPTY_PAYLOAD_TYPES } from "../notifications/notifysub.js";
import type { NotifySub } from "../notifications/notifysub.js";
import { toMicrosecondIso } from "./time.js";

/** What a platform plugin knows of one notification it is about to emit. */
export interface PlatformNotificationInput {
  /** The plugin's platform id (`subscription.condition.platform`). */
  platform: string;
  /** The catalog type, e.g. `channel.follow`. */
  type: string;
  /** The platform's own event id (cut to 128 characters); it is the dedup key downstream. */
  id: string;
  /** When it happened: an RFC 3339 time, epoch milliseconds, or nothing for now. */
  createdAt: string | number | null | undefined;
  /** The channel it happened on (its `platform_id` goes in the condition). */
  channel: Pick<ChatChannel, "platform_id">;
  /** The type's documented parameters, at the top of `event`. */
  data: Record<string, unknown> | readonly unknown[];
  /** The raw platform payload, kept in `ovation.platform_data.message`. */
  raw: unknown;
}

/**
 * Builds a NotifySub notification in the documented shape: the type's parameters at the top of
 * `event` (stream and channel-update types carry an empty list, whatever `data` holds), the time
 * with six fractional digits, and the raw platform payload in `ovation.platform_data`.
 */
export function platformNotification(input: PlatformNotificationInput): NotifySub {
  const { platform, type, id, createdAt, channel, data, raw } = input;
  const when = typeof createdAt === "number" ? new Date(createdAt).toISOString() : (createdAt ?? new Date().toISOString());
  return {
    subscription: { type, version: "1", condition: { platform, platform_id: channel.platform_id } },
    notification: { id: id.slice(0, 128), created_at: toMicrosecondIso(when) },
    event: (EMPTY_PAYLOAD_TYPES as readonly string[]).includes(type) ? [] : (data as NotifySub["event"]),
    ovation: { template: null, test: false, platform_data: { message: raw } },
  };
}
