import type { PluginHost } from "@ovation/core";
import type { BotChannel, BotOutput } from "../commands/bot-output.js";

/**
 * The bot modules' output over the server's PluginHost: channels are those the plugins serve, by user
 * id. `active` leaves out plugins this node does not run (a node standing by for the one holding the
 * plugin lease), so timers post once per installation, not once per node.
 */
export function pluginBotOutput(host: PluginHost, active: (name: string) => boolean = () => true): BotOutput {
  return {
    channelsOf(channelId) {
      const found: BotChannel[] = [];
      for (const name of host.names()) {
        const plugin = host.get(name);
        if (plugin.capabilities.send.length === 0 || !active(name)) continue;
        for (const channel of plugin.channels()) if (channel.id === channelId) found.push({ plugin: name, platform: plugin.metadata.platform, channel });
      }
      return found;
    },
    send: (plugin, message) => host.send(plugin, message),
    moderationTarget: (plugin) => host.moderationTarget(plugin),
    platformAction: (plugin, channel, action) => host.platformAction(plugin, channel, action),
  };
}
