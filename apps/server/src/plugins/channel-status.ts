import type { PluginHost } from "@ovation/core/plugins";
import { platformName, unservedStatus } from "../identity/index.js";
import type { ConnectionStatusView } from "../identity/index.js";
import type { ConnectionRecord } from "../store/records.js";

/**
 * How the bot serves a linked channel, in a streamer's words: off, unavailable (no plugin for the
 * platform), or the channel's state in the plugin that serves it.
 */
export function connectionStatusOf(host: PluginHost, connection: ConnectionRecord): ConnectionStatusView {
  const name = platformName(connection.platform);
  const plugin = host.health().find((h) => h.platform === connection.platform);
  if (!plugin) return unservedStatus(connection.platform);
  if (connection.bot_enabled === false) return { state: "off", message: `The bot is off for this ${name} channel`, action: null };
  if (!host.servesChannels(plugin.name)) {
    // A plugin of API 1.0 serves the channels it is configured with.
    const serving = plugin.status === "connected" || plugin.status === "degraded";
    return serving ? { state: "serving", message: `The bot is on in ${name}`, action: null } : { state: "starting", message: `The ${name} bot is starting`, action: null };
  }
  const channel = plugin.channels.find((c) => c.connection_id === connection.id);
  if (!channel || channel.state === "starting") return { state: "starting", message: `The bot is joining your ${name} channel`, action: null };
  switch (channel.state) {
    case "serving":
      return { state: "serving", message: channel.detail ? `The bot is on in ${name}: ${channel.detail}` : `The bot is on in ${name}`, action: null };
    case "missing_scope":
      return {
        state: "missing_scope",
        message: channel.detail ?? `Reconnect ${name} and allow every permission the bot asks for`,
        action: "grant_scope",
        missing_scopes: [...channel.missing_scopes],
      };
    case "needs_reconnect":
    case "failed":
      return { state: "needs_reconnect", message: channel.detail ?? `Reconnect ${name}: the link no longer works`, action: "reconnect" };
  }
}
