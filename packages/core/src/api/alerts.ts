import { z } from "zod";
import { alertTestSchema, alertTriggerSchema } from "../alerts/trigger.js";
import { notifySubSchema } from "../notifications/notifysub.js";
import { platformSchema } from "../platforms.js";

const triggerExtras = {
  platform: platformSchema.optional().describe("Platform of the alert (stored templates); by default the first platform your active set has the type on, preferring linked accounts."),
  notification_id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._:-]+$/, "may contain letters, digits, . _ : - only")
    .optional()
    .describe("Id for de-duplication (for example a platform message id): a repeated id is not shown twice. Generated when absent."),
};

/** Body of `POST /v1/alerts`. */
export const alertTriggerBodySchema = alertTriggerSchema.extend(triggerExtras);

/** Body of `POST /v1/alerts/test` (the deprecated `topic` folded into `template`). */
export const alertTestBodySchema = alertTestSchema;

/** The actions of `POST /v1/alerts/queue/{action}`. */
export const QUEUE_ACTIONS = ["skip", "pause", "resume", "clear"] as const;

const browserSourceTarget = z.number().int().positive().optional().describe("Only this browser source (one of yours); all of them when left out");

/** Optional body of `POST /v1/alerts/queue/{action}`: one browser source instead of all of them. */
export const queueActionBodySchema = z.object({ browser_source_id: browserSourceTarget }).nullish();

/** Answer of `POST /v1/alerts/queue/{action}`: what was done, and the queue state after it. */
export const queueStateSchema = z.object({
  action: z.enum(QUEUE_ACTIONS),
  browser_source_id: z.number().nullable().describe("The browser source the action went to; null for all of them"),
  paused: z.boolean().describe("Whether the whole queue is paused"),
  paused_sources: z.array(z.number()).describe("Browser sources paused one by one"),
  cleared: z.number().optional(),
});

/** Body of `POST /v1/alerts/queue/replay`. */
export const replayBodySchema = z.object({ notification_id: z.string().min(1).max(128), browser_source_id: browserSourceTarget });

/** One entry of the alert log. */
export const alertLogEntrySchema = z.object({
  notification: notifySubSchema,
  test: z.boolean(),
  cleared: z.boolean(),
  acknowledged_by: z.array(z.number()).describe("ids of the browser sources that have shown it"),
});

/** Query of `GET /v1/alerts/log`. */
export const alertLogQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });

/** Answer of `GET /v1/alerts/log`: the entries and the queue state. */
export const alertLogSchema = z.object({ data: z.array(alertLogEntrySchema), paused: z.boolean(), paused_sources: z.array(z.number()) });
