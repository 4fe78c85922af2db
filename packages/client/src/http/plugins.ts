import type * as api from "@ovation/core/api";
import type { Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link pluginsApi}. */
export const PLUGINS_ROUTES = {
  list: { method: "GET", path: "/v1/plugins" },
} as const;

/** A platform plugin of the server with its status and what to fix. */
export type PluginStatus = Out<typeof api.pluginStatusSchema>;
/** Answer of `GET /v1/plugins`. */
export type PluginsListing = Out<typeof api.pluginsListingSchema>;

/** The server's platform plugins (any valid token). */
export function pluginsApi(http: HttpClient) {
  return {
    /** `GET /v1/plugins`: each plugin's status and what to fix, and your alert sets naming platforms no plugin serves. */
    list: (options?: CallOptions) => http.call<PluginsListing>(PLUGINS_ROUTES.list, options),
  };
}

/** The API of {@link pluginsApi}. */
export type PluginsApi = ReturnType<typeof pluginsApi>;
