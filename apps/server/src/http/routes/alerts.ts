import { z } from "zod";
import { alertTestSchema, alertTriggerSchema, exampleAlertData, notifySubSchema, platformSchema } from "@ovation/core";
import type { TypeDefault } from "@ovation/core";
import type { FastifyRequest } from "fastify";
import { callerOf } from "../authenticate.js";
import { alertCatalog } from "./alert-catalog.js";
import { ApiError } from "../../errors.js";
import type { PublishResult } from "../../realtime/alert-hub.js";
import type { Repositories } from "../../store/repositories.js";
import { OWN_PLATFORM } from "../../realtime/rooms.js";
import { authErrorResponses } from "../types.js";
import type { ZodApp } from "../types.js";

/** `subscription.type` of alerts with an inline template (variants 2 and 3). */
export const CUSTOM_ALERT_TYPE = "custom";

/** Deprecation date of `topic` (notice of 2023-02-06), as the RFC 9745 `Deprecation` header value. */
export const TOPIC_DEPRECATION = `@${Date.UTC(2023, 1, 6) / 1000}`;

const extras = {
  platform: platformSchema.optional().describe("Platform of the alert (stored templates); by default the first platform your active set has the type on, preferring linked accounts."),
  notification_id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._:-]+$/, "may contain letters, digits, . _ : - only")
    .optional()
    .describe("Id for de-duplication (for example a platform message id): a repeated id is not shown twice. Generated when absent."),
};

const triggerBodySchema = alertTriggerSchema.extend(extras);

type Template = z.output<typeof alertTriggerSchema>["template"];

function typeDefaults(repos: Repositories, userId: number): readonly TypeDefault[] {
  const set = repos.alertSets.peekActive(userId);
  if (!set || set.version !== 4 || !Array.isArray(set.config["defaults"])) return [];
  return set.config["defaults"] as readonly TypeDefault[];
}

/** Where an alert comes from: its type, platform and the platform's id of the channel. */
function alertOrigin(repos: Repositories, userId: number, template: Template, platform: string | undefined): { type: string; platform: string; platformId: string } {
  const connections = repos.connections.listForUser(userId);
  const platformIdOf = (p: string) => connections.find((c) => c.platform === p)?.platform_user_id ?? String(userId);
  if (typeof template !== "string") {
    const p = platform ?? OWN_PLATFORM;
    return { type: CUSTOM_ALERT_TYPE, platform: p, platformId: platformIdOf(p) };
  }
  const entries = typeDefaults(repos, userId).filter((d) => d.type === template);
  if (entries.length === 0) {
    const message = `The template field names a stored template you do not have: ${template} (your active alert set has no type default for it).`;
    throw new ApiError("OVATION_ERR_ALERTS_UNKNOWN_TEMPLATE", { message, errors: { template: [message] } });
  }
  const linked = new Set(connections.map((c) => c.platform));
  const chosen =
    platform ??
    (entries.find((d) => d.enabled && linked.has(d.platform)) ?? entries.find((d) => d.enabled) ?? entries[0])?.platform ??
    "twitch";
  return { type: template, platform: chosen, platformId: platformIdOf(chosen) };
}

const responses = { 200: notifySubSchema, 201: notifySubSchema, ...authErrorResponses };

/**
 * `POST /v1/alerts` (the three template variants) and `POST /v1/alerts/test` (deprecated `topic`
 * accepted, answered with a `Deprecation` header). Both need `alerts:manage`; the alert is stored in
 * the user's alert log before the answer, and sent as `notifysub` to the user's rooms.
 */
export async function alertRoutes(app: ZodApp): Promise<void> {
  const { repos, hub } = app.ovation;
  const auth = app.ovation.authenticate("alerts:manage");

  /** Resolves where the alert comes from, logs and emits it, and waits until the log is on disk. */
  const send = async (
    userId: number,
    alert: { template: Template; data: (platform: string) => Record<string, unknown>; platform: string | undefined; test: boolean; notificationId: string | undefined },
  ): Promise<PublishResult> => {
    const origin = alertOrigin(repos, userId, alert.template, alert.platform);
    const result = hub.publish({
      userId,
      ...origin,
      data: alert.data(origin.platform),
      template: typeof alert.template === "string" ? null : (alert.template as Record<string, unknown>),
      test: alert.test,
      ...(alert.notificationId === undefined ? {} : { notificationId: alert.notificationId }),
    });
    await repos.store.persisted();
    return result;
  };

  app.post(
    "/v1/alerts",
    {
      preHandler: auth,
      schema: {
        tags: ["alerts"],
        summary: "Trigger an alert",
        description:
          "`template` is a stored template name (variant 1), an inline template (variant 2) or inline html/css/js with `fields` (variant 3). " +
          "201 with the notification sent; 200 with the earlier one when `notification_id` was already used.",
        security: [{ bearerAuth: [] }],
        body: triggerBodySchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const { template, data, platform, notification_id } = request.body;
      const result = await send(callerOf(request).userId, { template, data: () => data, platform, test: false, notificationId: notification_id });
      return reply.code(result.duplicate ? 200 : 201).send(result.notification);
    },
  );

  app.post(
    "/v1/alerts/test",
    {
      preHandler: auth,
      preValidation: async (request: FastifyRequest) => {
        const body = request.body;
        (request as FastifyRequest & { usedTopic?: boolean }).usedTopic =
          body !== null && typeof body === "object" && "topic" in body && !("template" in body);
      },
      schema: {
        tags: ["alerts"],
        summary: "Trigger a test alert",
        description:
          "Like POST /v1/alerts, marked `event.test: true` (never de-duplicated). `data` defaults to the catalog example. " +
          "The deprecated `topic` is accepted for `template`; such calls get a `Deprecation` header.",
        security: [{ bearerAuth: [] }],
        body: alertTestSchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const { template, data, platform } = request.body;
      const example = (chosenPlatform: string) => data ?? (typeof template === "string" ? exampleAlertData(template, chosenPlatform, alertCatalog(app)) : {});
      const { notification } = await send(callerOf(request).userId, { template, data: example, platform, test: true, notificationId: undefined });
      if ((request as FastifyRequest & { usedTopic?: boolean }).usedTopic) {
        reply.header("deprecation", TOPIC_DEPRECATION);
      }
      return reply.code(201).send(notification);
    },
  );
}
