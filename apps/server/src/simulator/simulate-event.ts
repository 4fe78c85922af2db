import { randomUUID } from "node:crypto";
import { EMPTY_PAYLOAD_TYPES, STREAM_STATE_TYPES, exampleAlertData, normalizePlatform, definedKeys } from "@ovation/core";
import type { NotifySub } from "@ovation/core";
import type { CatalogAlertType } from "@ovation/core/alerts";
import { ApiError } from "../errors.js";
import { deliverToOwner } from "../plugins/chat-routing.js";
import type { OvationServices } from "../services.js";
import { timestamp } from "../store/records.js";

/** One event to simulate for a user. */
export interface SimulatedEvent {
  userId: number;
  /** An alert type of the catalog for the platform, or `stream.online` / `stream.offline`. */
  type: string;
  platform: string;
  /** Sets `data.name` (who followed, raided...). */
  name?: string;
  /** Values over the catalog example's. */
  data?: Readonly<Record<string, unknown>>;
}

/** What the simulator needs of the running server: its services and the catalog of its loaded platforms. */
export interface SimulatorContext {
  services: OvationServices;
  catalog: () => readonly CatalogAlertType[];
  /** Platform ids the server knows (built-in and the loaded plugins'). */
  platforms: () => readonly string[];
}

function invalid(field: string, message: string): ApiError {
  return new ApiError("OVATION_ERR_HTTP_VALIDATION", { message, errors: { [field]: [message] } });
}

/**
 * Sends a catalog event of a platform as if the platform's plugin had: the notification a plugin
 * would emit (the catalog example's data, `data` and `name` over it) goes through the same delivery
 * as a plugin's ({@link deliverToOwner}): the alert log and browser sources, goal bars, known
 * followers, the live state timers and `enable_when` read. It is marked `ovation.simulated`.
 * Throws a 422 naming the field when the platform or the type is not in the catalog.
 */
export async function simulateEvent(context: SimulatorContext, input: SimulatedEvent): Promise<NotifySub> {
  const { services } = context;
  const platform = normalizePlatform(input.platform);
  const known = context.platforms();
  if (!known.includes(platform)) throw invalid("platform", `The platform field must be one of: ${known.join(", ")} (got ${input.platform}).`);
  const streamState = (STREAM_STATE_TYPES as readonly string[]).includes(input.type);
  const catalog = context.catalog();
  const entry = catalog.find((t) => t.type === input.type && t.platforms.some((p) => p.platform === platform));
  if (!streamState && !entry) {
    const types = catalog.filter((t) => t.platforms.some((p) => p.platform === platform)).map((t) => t.type);
    throw invalid("type", `The type field must be an event of ${platform}: ${[...types, ...STREAM_STATE_TYPES].join(", ")} (got ${input.type}).`);
  }
  const event = (EMPTY_PAYLOAD_TYPES as readonly string[]).includes(input.type)
    ? []
    : { ...exampleAlertData(input.type, platform, catalog), ...input.data, ...definedKeys({ name: input.name }) };
  // The streamer's id on the platform, as a plugin names it: the linked account, else the user id.
  const connection = services.repos.connections.listForUser(input.userId).find((c) => c.platform === platform);
  const notification: NotifySub = {
    subscription: { type: input.type, version: "1", condition: { platform, platform_id: connection?.platform_user_id ?? String(input.userId) } },
    notification: { id: randomUUID(), created_at: timestamp() },
    event,
  };
  const published = await deliverToOwner(services, input.userId, notification, { simulated: true });
  await services.repos.store.persisted();
  return published.notification;
}
