import * as z from "zod";

/**
 * Ovation's additions to a notification, kept beside `event` (never inside it) so that the
 * documented payload keys stay exactly where the reference's clients read them (`event.name`).
 */
export const notificationExtrasSchema = z.object({
  /** The integer 1..100 drawn once per alert, so every browser source picks the same variations. */
  random: z.number().int().min(1).max(100).optional(),
  /** The inline template of variants 2 and 3; null (or absent) for a stored template. */
  template: z.record(z.string(), z.unknown()).nullable().optional(),
  /** True for `POST /v1/alerts/test`. */
  test: z.boolean().optional(),
  /** True when the alert is sent again from the alert log. */
  replay: z.boolean().optional(),
  /** True for an event sent by the event simulator (`POST /v1/simulate`, `ovation simulate`), not by a platform. */
  simulated: z.boolean().optional(),
  /** The raw platform event a plugin mapped (type, version, event), when it kept one. */
  platform_data: z.unknown().optional(),
});

/** Ovation's additions to a notification (the `ovation` key beside `event`). */
export type NotificationExtras = z.infer<typeof notificationExtrasSchema>;

/** The payload of a notification: an object of the type's keys, or an empty list for stream/channel events. */
export const notificationPayloadSchema = z.union([z.record(z.string(), z.unknown()), z.array(z.never()).max(0)]);

/** The `event` of a notification. */
export type NotificationPayload = z.infer<typeof notificationPayloadSchema>;

/**
 * A NotifySub notification (docs/compatibility.md, "Alert notifications"), the payload of the `notifysub`
 * socket event and the answer of the alert endpoints. `subscription.type` is an alert type of the
 * catalog, `custom`, or a non-alert type ({@link NON_ALERT_TYPES}). `event` holds the type's payload
 * keys at its top level; Ovation's own additions live in `ovation` beside it.
 */
export const notifySubSchema = z.object({
  subscription: z.object({
    type: z.string().min(1).max(128),
    version: z.string().max(16),
    condition: z.object({
      platform: z.string().min(1).max(32),
      platform_id: z.string().max(256),
    }),
  }),
  notification: z.object({
    id: z.string().min(1).max(128),
    created_at: z.string(),
  }),
  event: notificationPayloadSchema,
  ovation: notificationExtrasSchema.optional(),
});

export type NotifySub = z.infer<typeof notifySubSchema>;

/** Stream state types that feed a command's `enable_when`. */
export const STREAM_STATE_TYPES = ["stream.online", "stream.offline"] as const;

/** Non-alert types whose `event` is an empty list. */
export const EMPTY_PAYLOAD_TYPES = ["stream.online", "stream.offline", "update"] as const;

/** Channel-point reward types (payload `{id}`). */
export const REWARD_TYPES = [
  "channel.channel_points_custom_reward.add",
  "channel.channel_points_custom_reward.update",
  "channel.channel_points_custom_reward.remove",
] as const;

/** Channel-point redemption types (payload {@link REDEMPTION_PAYLOAD_KEYS}). */
export const REDEMPTION_TYPES = [
  "channel.channel_points_custom_reward_redemption.add",
  "channel.channel_points_custom_reward_redemption.update",
] as const;

/** Keys of a redemption payload, as the reference documents them. */
export const REDEMPTION_PAYLOAD_KEYS = [
  "id",
  "name",
  "message",
  "status",
  "user_id",
  "user_login",
  "user_name",
  "user_input",
  "broadcaster_id",
  "broadcaster_login",
  "broadcaster_name",
  "reward_id",
  "reward_title",
  "reward_cost",
  "reward_prompt",
] as const;

/** Notification types that are not alerts: browser sources do not show them. */
export const NON_ALERT_TYPES: readonly string[] = [...EMPTY_PAYLOAD_TYPES, ...REWARD_TYPES, ...REDEMPTION_TYPES];

/** `subscription.type` of alerts with an inline template (variants 2 and 3) and other custom events. */
export const CUSTOM_NOTIFICATION_TYPE = "custom";

/** `label` of a custom event when the caller gives none in `data.label`. */
export const DEFAULT_CUSTOM_LABEL = "ovation/custom-alert";

/** The payload keys of a notification as an object (`{}` for the empty-list payload). */
export function payloadOf(notification: Pick<NotifySub, "event">): Record<string, unknown> {
  return Array.isArray(notification.event) ? {} : notification.event;
}
