import { z } from "zod";

/**
 * A NotifySub notification (reference-facts.md "NotifySub events"), the payload of the `notifysub`
 * socket event. `subscription.type` is an alert type of the catalog or a stream/channel event
 * (`stream.online`, `stream.offline`, `update`).
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
  event: z.record(z.string(), z.unknown()),
});

export type NotifySub = z.infer<typeof notifySubSchema>;

/** Stream state types that feed a command's `enable_when`. */
export const STREAM_STATE_TYPES = ["stream.online", "stream.offline"] as const;
