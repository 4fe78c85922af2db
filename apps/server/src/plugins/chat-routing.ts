import { STREAM_STATE_TYPES, definedKeys } from "@ovation/core";
import type { ChatRoomEvent, NotifySub, PlatformPlugin } from "@ovation/core";
import type { Logger } from "pino";
import type { PublishResult } from "../realtime/gateway.js";
import type { OvationServices } from "../services.js";

/** The public chat room of a channel: `<user_uuid>.<platform>.<platform_channel_id>.chat`. */
export function chatRoomOf(userUuid: string, platform: string, platformChannelId: string): string {
  return `${userUuid}.${platform}.${platformChannelId}.chat`;
}

/** Publishes a plugin's chat or moderation event to the channel owner's `.chat` room. */
export function publishChatRoomEvent(services: OvationServices, event: ChatRoomEvent): void {
  const user = services.repos.users.get(Number(event.channel.id));
  if (!user) return;
  const to = services.io.to(chatRoomOf(user.uuid, event.platform, event.channel.platform_id));
  switch (event.event) {
    case "message":
      to.emit("message", event.payload);
      return;
    // The platform rides along so a client in several `.chat` rooms (the `chat` browser source)
    // knows which platform's lines a deletion or a clear concerns: `channel` is the Ovation channel id.
    case "delete-message":
      to.emit("delete-message", { ...event.payload, platform: event.platform });
      return;
    case "clear-chat":
      to.emit("clear-chat", { ...event.payload, platform: event.platform });
      return;
  }
}

/** The platform id of whoever caused a notification (a follower...), from the raw platform event when the plugin kept it. */
function notifierId(notification: NotifySub): string | null {
  const raw = (notification.ovation?.platform_data as { event?: { user_id?: unknown } } | undefined)?.event?.user_id;
  return typeof raw === "string" && raw.length > 0 && raw.length <= 256 ? raw : null;
}

/**
 * Delivers a plugin's notification: to the alert log and the owner's rooms (through the realtime gateway,
 * which de-duplicates by notification id), to the bot modules (goal bars, known followers), and
 * for stream.online/offline to the bot runtime's `enable_when` state. The owner is the served channel whose platform id the notification names.
 */
export function deliverNotification(services: OvationServices, logger: Logger, plugin: PlatformPlugin, notification: NotifySub): void {
  const { condition, type } = notification.subscription;
  const channel = plugin.channels().find((c) => c.platform_id === condition.platform_id);
  const userId = channel ? Number(channel.id) : Number.NaN;
  if (!Number.isSafeInteger(userId) || !services.repos.users.get(userId)) {
    logger.warn({ type, platform_id: condition.platform_id }, "notification for a channel no user owns; dropped");
    return;
  }
  const published = deliverToOwner(services, userId, notification);
  published.catch((error: unknown) => logger.warn({ err: error, type, platform_id: condition.platform_id }, "notification not delivered"));
}

/**
 * The part of {@link deliverNotification} after the owner is known: the `enable_when` state, the bot
 * modules and the realtime gateway. The event simulator enters here (`simulated`), so a simulated event
 * takes exactly a plugin's path.
 */
export function deliverToOwner(services: OvationServices, userId: number, notification: NotifySub, options: { simulated?: boolean } = {}): Promise<PublishResult> {
  const { condition, type } = notification.subscription;
  if ((STREAM_STATE_TYPES as readonly string[]).includes(type)) {
    services.commands.runtime.applyNotification(String(userId), notification);
  }
  const platformData = notification.ovation?.platform_data;
  const event = notification.event;
  const fields = typeof event === "object" && event !== null && !Array.isArray(event) ? (event as Record<string, unknown>) : {};
  services.botModules.onNotification(userId, type, condition.platform, fields, notifierId(notification));
  return services.hub.publish({
    userId,
    type,
    platform: condition.platform,
    platformId: condition.platform_id,
    event: notification.event,
    template: null,
    test: false,
    notificationId: notification.notification.id,
    ...definedKeys({ platformData }),
    ...(options.simulated === true ? { simulated: true } : {}),
  });
}
