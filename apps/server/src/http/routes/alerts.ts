import type { z } from "zod";
import { alertTriggerBodySchema as triggerBodySchema } from "@ovation/core/api";
import {
  CUSTOM_NOTIFICATION_TYPE,
  DEFAULT_CUSTOM_LABEL,
  alertTestSchema,
  definedKeys,
  exampleAlertData,
  normalizePlatform,
  notifySubSchema,
} from "@ovation/core";
import type { TypeDefault } from "@ovation/core";
import type { FastifyRequest } from "fastify";
import { channelUserOf, channelRoute } from "../channel-routes.js";
import { alertCatalog } from "./alert-catalog.js";
import { ApiError } from "../../errors.js";
import type { PublishResult } from "../../realtime/gateway.js";
import type { Repositories } from "../../store/repositories.js";
import { OWN_PLATFORM } from "../../realtime/rooms.js";
import { authErrorResponses } from "../types.js";
import type { ZodApp } from "../types.js";

/** `subscription.type` of alerts with an inline template (variants 2 and 3). */
export const CUSTOM_ALERT_TYPE = CUSTOM_NOTIFICATION_TYPE;

/** `condition.platform` of own-platform alerts (donations, custom alerts) when the caller names none: the reference's identifier. */
export const DOCUMENTED_OWN_PLATFORM = "own3d";

/** Deprecation date of `topic` (notice of 2023-02-06), as the RFC 9745 `Deprecation` header value. */
export const TOPIC_DEPRECATION = `@${Date.UTC(2023, 1, 6) / 1000}`;

type Template = z.output<typeof triggerBodySchema>["template"];

function typeDefaults(repos: Repositories, userId: number): readonly TypeDefault[] {
  const set = repos.alertSets.peekActive(userId);
  if (!set || set.version !== 4 || !Array.isArray(set.config["defaults"])) return [];
  return set.config["defaults"] as readonly TypeDefault[];
}

/**
 * Where an alert comes from: its type, the platform as the caller wrote it (own-platform alerts
 * default to `own3d`, the documented identifier) and the streamer's id on that platform: the linked
 * connection's platform user id, else the Ovation user id (the id on the service's own platform).
 */
function alertOrigin(repos: Repositories, userId: number, template: Template, given: string | undefined): { type: string; platform: string; platformId: string } {
  const connections = repos.connections.listForUser(userId);
  const origin = (type: string, platform: string) => {
    const wire = normalizePlatform(platform) === OWN_PLATFORM && given === undefined ? DOCUMENTED_OWN_PLATFORM : platform;
    const connection = connections.find((c) => c.platform === normalizePlatform(platform));
    return { type, platform: wire, platformId: connection?.platform_user_id ?? String(userId) };
  };
  if (typeof template !== "string") return origin(CUSTOM_ALERT_TYPE, given ?? OWN_PLATFORM);
  const entries = typeDefaults(repos, userId).filter((d) => d.type === template);
  if (entries.length === 0) {
    const message = `The template field names a stored template you do not have: ${template} (your active alert set has no type default for it).`;
    throw new ApiError("OVATION_ERR_ALERTS_UNKNOWN_TEMPLATE", { message, errors: { template: [message] } });
  }
  const linked = new Set(connections.map((c) => c.platform));
  const chosen =
    given ??
    (entries.find((d) => d.enabled && linked.has(d.platform)) ?? entries.find((d) => d.enabled) ?? entries[0])?.platform ??
    "twitch";
  return origin(template, chosen);
}

/** The `event` of an alert: the data at the top level; custom alerts also carry `label` (`data.label` or the default). */
function payloadFor(template: Template, data: Record<string, unknown>): Record<string, unknown> {
  if (typeof template === "string") return data;
  const label = typeof data["label"] === "string" && data["label"] !== "" ? data["label"] : DEFAULT_CUSTOM_LABEL;
  return { ...data, label };
}

/** The platform as the caller wrote it (lowercased), captured before validation canonicalises `own3d`. */
function givenPlatform(request: FastifyRequest): string | undefined {
  return (request as FastifyRequest & { givenPlatform?: string }).givenPlatform;
}

async function captureGiven(request: FastifyRequest): Promise<void> {
  const body = request.body;
  const platform = body !== null && typeof body === "object" ? (body as Record<string, unknown>)["platform"] : undefined;
  (request as FastifyRequest & { givenPlatform?: string; usedTopic?: boolean }).givenPlatform = typeof platform === "string" ? platform.toLowerCase() : undefined;
  (request as FastifyRequest & { usedTopic?: boolean }).usedTopic = body !== null && typeof body === "object" && "topic" in body && !("template" in body);
}

const responses = { 200: notifySubSchema, 201: notifySubSchema, ...authErrorResponses };

/**
 * The answer of the alert routes (200, 201): the notification the gateway built or logged, typed as
 * `notifySubSchema`'s output, written with `JSON.stringify` alone (`reply.serializer`). The app's
 * zod serializer would check and copy it first: about a tenth of a node's CPU time per alert at 200
 * alerts a second (issue 25). Errors still go through the zod serializer as everywhere.
 */
const notificationJson = (notification: unknown): string => JSON.stringify(notification);

/**
 * `POST /v1/alerts` (the three template variants) and `POST /v1/alerts/test` (deprecated `topic`
 * accepted, answered with a `Deprecation` header). Both need `alerts:manage`; the alert is stored in
 * the user's alert log before the answer, and sent as `notifysub` to the user's rooms. Both also
 * answer at `/v1/bots/{user}/alerts[/test]` for a channel the caller manages (the reference's paths
 * stay as they are).
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
    const result = await hub.publish({
      userId,
      ...origin,
      event: payloadFor(alert.template, alert.data(normalizePlatform(origin.platform))),
      template: typeof alert.template === "string" ? null : (alert.template as Record<string, unknown>),
      test: alert.test,
      ...definedKeys({ notificationId: alert.notificationId }),
    });
    // Only the alert log: another user's big document being written must not hold the answer.
    await repos.store.alertLogsPersisted();
    return result;
  };

  channelRoute(
    app,
    { method: "POST", path: "/v1/alerts" },
    (form) => ({
      preHandler: auth,
      preValidation: captureGiven,
      schema: {
        params: form.params,
        tags: ["alerts"],
        summary: "Trigger an alert",
        description:
          "`template` is a stored template name (variant 1), an inline template (variant 2) or inline html/css/js with `fields` (variant 3). " +
          "The answer is the NotifySub notification: `event` holds the data keys at its top level (custom alerts add `label`), " +
          "Ovation's additions (`random`, `template`, `test`) are in `ovation` beside it. " +
          "201 with the notification sent; 200 with the earlier one when `notification_id` was already used.",
        security: [{ bearerAuth: [] }],
        body: triggerBodySchema,
        response: responses,
      },
    }),
    async (request, reply) => {
      const { template, data, platform, notification_id } = request.body;
      const given = platform === undefined ? undefined : (givenPlatform(request) ?? platform);
      const result = await send(channelUserOf(request), { template, data: () => data, platform: given, test: false, notificationId: notification_id });
      return reply.code(result.duplicate ? 200 : 201).type("application/json; charset=utf-8").serializer(notificationJson).send(result.notification);
    },
  );

  channelRoute(
    app,
    { method: "POST", path: "/v1/alerts/test" },
    (form) => ({
      preHandler: auth,
      preValidation: captureGiven,
      schema: {
        params: form.params,
        tags: ["alerts"],
        summary: "Trigger a test alert",
        description:
          "Like POST /v1/alerts, marked `ovation.test: true` (never de-duplicated). `data` defaults to the catalog example. " +
          "The deprecated `topic` is accepted for `template`; such calls get a `Deprecation` header.",
        security: [{ bearerAuth: [] }],
        body: alertTestSchema,
        response: responses,
      },
    }),
    async (request, reply) => {
      const { template, data, platform } = request.body;
      const example = (chosenPlatform: string) => data ?? (typeof template === "string" ? exampleAlertData(template, chosenPlatform, alertCatalog(app)) : {});
      const given = platform === undefined ? undefined : (givenPlatform(request) ?? platform);
      const { notification } = await send(channelUserOf(request), { template, data: example, platform: given, test: true, notificationId: undefined });
      if ((request as FastifyRequest & { usedTopic?: boolean }).usedTopic) {
        reply.header("deprecation", TOPIC_DEPRECATION);
      }
      return reply.code(201).type("application/json; charset=utf-8").serializer(notificationJson).send(notification);
    },
  );
}
