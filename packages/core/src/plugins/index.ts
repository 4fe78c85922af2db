/**
 * @ovation/core/plugins: the host side of platform plugins (PluginHost, checkPlugin, version checks).
 * Plugin authors need only @ovation/core/contracts.
 */
export { pluginMetadataSchema, pluginCapabilitiesSchema, checkPlugin } from "./metadata.js";
export { CORE_VERSION, coreSatisfies } from "./version.js";
export { PluginHost, normalizeSendAs } from "./host.js";
export type {
  HostAction,
  PluginSource,
  ChatRoomEvent,
  PluginHostOptions,
  PluginCounters,
  PluginHealth,
} from "./host.js";
