import { errorClassFor } from "../errors.js";
import type { ErrorCodeOf } from "../errors.js";

/** Stable codes of the errors raised by the plugin host and the plugin contract. */
export const PLUGIN_ERROR_CODES = {
  /** Metadata (name, platform, version, core range) or capabilities fail their schema. */
  metadataInvalid: "OVATION_ERR_PLUGIN_METADATA_INVALID",
  /** The plugin's core version range does not include the running core. */
  coreVersion: "OVATION_ERR_PLUGIN_CORE_VERSION",
  /** A plugin with the same name is already registered. */
  duplicate: "OVATION_ERR_PLUGIN_DUPLICATE",
  /** No plugin of that name (or platform) is registered. */
  notFound: "OVATION_ERR_PLUGIN_NOT_FOUND",
  /** A chat event, notification or moderation event emitted by a plugin failed validation. */
  eventInvalid: "OVATION_ERR_PLUGIN_EVENT_INVALID",
  /** The plugin does not declare the capability an action needs (announce, delete, timeout...). */
  unsupported: "OVATION_ERR_PLUGIN_UNSUPPORTED",
  /** connect/disconnect/send of a plugin failed. */
  failed: "OVATION_ERR_PLUGIN_FAILED",
} as const;

/** A plugin error code. */
export type PluginErrorCode = ErrorCodeOf<typeof PLUGIN_ERROR_CODES>;

/** An error raised by the plugin host or a plugin at the contract boundary. */
export class PluginError extends errorClassFor("PluginError", PLUGIN_ERROR_CODES) {}
