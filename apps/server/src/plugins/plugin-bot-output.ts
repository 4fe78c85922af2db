import type { PluginHost } from "@ovation/core";
import type { BotChannel, BotOutput } from "../commands/bot-output.js";

/** The bot modules' output over the server's PluginHost: channels are those the plugins serve, by user id. */
export function pluginBotOutput(host: PluginHost): BotOutput {
  return {
    channelsOf(channelId) {
      const found: BotChannel[] = [];
      for (const name of host.names()) {
        const plugin = host.get(name);
        if (plugin.capabilities.send.length === 0) continue;
        for (const channel of plugin.channels()) if (channel.id === channelId) found.push({ plugin: name, platform: plugin.metadata.platform, channel });
      }
      return found;
    },
    send: (plugin, message) => host.send(plugin, message),
    moderationTarget: (plugin) => host.moderationTarget(plugin),
  };
}
