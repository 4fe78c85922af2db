import { STREAM_STATE_TYPES } from "@ovation/core";
import type { ChatRoomEvent, NotifySub, PlatformPlugin } from "@ovation/core";
import type { Logger } from "pino";
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
    case "delete-message":
      to.emit("delete-message", event.payload);
      return;
    case "clear-chat":
      to.emit("clear-chat", event.payload);
      return;
  }
}

/**
 * Delivers a plugin's notification: to the alert log and the owner's rooms (through the alert hub,
 * which de-duplicates by notification id), and for stream.online/offline to the bot runtime's
 * `enable_when` state. The owner is the served channel whose platform id the notification names.
 */
export function deliverNotification(services: OvationServices, logger: Logger, plugin: PlatformPlugin, notification: NotifySub): void {
  const { condition, type } = notification.subscription;
  const channel = plugin.channels().find((c) => c.platform_id === condition.platform_id);
  const userId = channel ? Number(channel.id) : Number.NaN;
  if (!Number.isSafeInteger(userId) || !services.repos.users.get(userId)) {
    logger.warn({ type, platform_id: condition.platform_id }, "notification for a channel no user owns; dropped");
    return;
  }
  if ((STREAM_STATE_TYPES as readonly string[]).includes(type)) {
    services.commands.runtime.applyNotification(String(userId), notification);
  }
  const platformData = notification.ovation?.platform_data;
  services.hub.publish({
    userId,
    type,
    platform: condition.platform,
    platformId: condition.platform_id,
    event: notification.event,
    template: null,
    test: false,
    notificationId: notification.notification.id,
    ...(platformData === undefined ? {} : { platformData }),
  });
}
