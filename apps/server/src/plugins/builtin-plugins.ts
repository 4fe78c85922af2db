import type { PluginFactory } from "@ovation/core/contracts";
import type { OvationServices } from "../services.js";

/**
 * Loads a built-in plugin's factory. `services` are the server's (null when only settings are
 * checked, as `ovation plugins` does without a running server), for plugins that keep data in the store.
 */
export type BuiltInPluginLoader = (services: OvationServices | null) => Promise<PluginFactory>;

/**
 * The plugins `OVATION_PLUGINS` knows by name, each loaded on demand. Any other entry is a module
 * specifier (a package name or a path). To ship another platform with the server, add one line.
 */
export const BUILT_IN_PLUGINS: Readonly<Record<string, BuiltInPluginLoader>> = {
  console: async () => (await import("@ovation/plugin-console")).consoleFactory,
  twitch: async () => (await import("@ovation/plugin-twitch")).twitchFactory,
  tiktok: async () => (await import("@ovation/plugin-tiktok")).tiktokFactory,
  youtube: async () => (await import("@ovation/plugin-youtube")).youtubeFactory,
  kick: async () => (await import("@ovation/plugin-kick")).kickFactory,
};

/** Whether `name` is a built-in plugin name. */
export function isBuiltInPlugin(name: string): boolean {
  return Object.hasOwn(BUILT_IN_PLUGINS, name);
}
