import { z } from "zod";

/** `metadata` of every EventSub WebSocket message. */
export const eventSubMetadataSchema = z.object({
  message_id: z.string().min(1).max(128),
  message_type: z.string(),
  message_timestamp: z.string(),
  subscription_type: z.string().optional(),
  subscription_version: z.string().optional(),
});

/** The session object of `session_welcome` and `session_reconnect`. */
export const eventSubSessionSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  keepalive_timeout_seconds: z.number().int().positive().nullable(),
  reconnect_url: z.string().nullable(),
});

/** A subscription as EventSub describes it in notifications and revocations. */
export const eventSubSubscriptionSchema = z.object({
  id: z.string(),
  status: z.string(),
  type: z.string(),
  version: z.string(),
  condition: z.record(z.string(), z.string()),
});

/** Any EventSub WebSocket message: the payload is checked per `message_type`. */
export const eventSubMessageSchema = z.object({
  metadata: eventSubMetadataSchema,
  payload: z.record(z.string(), z.unknown()),
});

/** Payload of `session_welcome` / `session_reconnect`. */
export const sessionPayloadSchema = z.object({ session: eventSubSessionSchema });

/** Payload of `notification`. */
export const notificationPayloadSchema = z.object({
  subscription: eventSubSubscriptionSchema,
  event: z.record(z.string(), z.unknown()),
});

/** Payload of `revocation`. */
export const revocationPayloadSchema = z.object({ subscription: eventSubSubscriptionSchema });

/** A notification as the socket hands it on: message id and time, subscription, raw event. */
export interface EventSubNotification {
  messageId: string;
  timestamp: string;
  subscription: z.infer<typeof eventSubSubscriptionSchema>;
  event: Record<string, unknown>;
}

/** A revoked subscription. */
export type EventSubRevocation = z.infer<typeof eventSubSubscriptionSchema>;
