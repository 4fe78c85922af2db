import type * as api from "@ovation/core/api";
import type { In, Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link browserSourcesApi}. */
export const BROWSER_SOURCES_ROUTES = {
  list: { method: "GET", path: "/v1/browser-source" },
  generate: { method: "POST", path: "/v1/browser-source/generate" },
  regenerate: { method: "POST", path: "/v1/browser-source/{id}/regenerate" },
  config: { method: "GET", path: "/browser-source/api/{token}/config" },
  saveSettings: { method: "PUT", path: "/v1/browser-source/{id}/settings" },
  speech: { method: "GET", path: "/browser-source/api/{token}/speech/{notification_id}" },
} as const;

/** A browser source as the API returns it. */
export type BrowserSource = Out<typeof api.browserSourceSchema>;
/** A browser source as the channel form (`/v1/bots/{user}/browser-source...`) returns it: no token nor address for a manager. */
export type ChannelBrowserSource = Out<typeof api.channelBrowserSourceSchema>;
/** What a browser source page loads at start (authorised by its access token alone). */
export type BrowserSourceConfig = Out<typeof api.browserSourceConfigSchema>;

/** Browser sources (scope `alerts:manage`; `config` needs only the source's access token). */
export function browserSourcesApi(http: HttpClient) {
  return {
    /** `GET /v1/browser-source`. */
    list: (options?: CallOptions) => http.call<{ data: BrowserSource[] }>(BROWSER_SOURCES_ROUTES.list, options),
    /** `POST /v1/browser-source/generate`: the source of a type and identifier (made once, then the same). */
    generate: (body: In<typeof api.browserSourceGenerateBodySchema>, options?: CallOptions) => http.call<BrowserSource>(BROWSER_SOURCES_ROUTES.generate, { ...options, body }),
    /** `POST /v1/browser-source/{id}/regenerate`: a new access token (the old URL stops working at once). */
    regenerate: (id: number, options?: CallOptions) => http.call<BrowserSource>(BROWSER_SOURCES_ROUTES.regenerate, { ...options, params: { id } }),
    /** `PUT /v1/browser-source/{id}/settings`: the source's options (docs/overlays.md); its pages reload them at once. */
    saveSettings: (id: number, settings: Record<string, unknown>, options?: CallOptions) =>
      http.call<BrowserSource>(BROWSER_SOURCES_ROUTES.saveSettings, { ...options, params: { id }, body: { settings } }),
    /** `GET /browser-source/api/{token}/speech/{notification_id}`: the read-aloud WAV of an alert (empty when nothing is read). */
    speech: (accessToken: string, notificationId: string, options?: CallOptions) =>
      http.call<Uint8Array | undefined>(BROWSER_SOURCES_ROUTES.speech, { ...options, params: { token: accessToken, notification_id: notificationId }, as: "bytes" }),
    /** `GET /browser-source/api/{token}/config`: the configuration a browser source page starts with. */
    config: (accessToken: string, options?: CallOptions) => http.call<BrowserSourceConfig>(BROWSER_SOURCES_ROUTES.config, { ...options, params: { token: accessToken } }),
  };
}

/** The API of {@link browserSourcesApi}. */
export type BrowserSourcesApi = ReturnType<typeof browserSourcesApi>;
