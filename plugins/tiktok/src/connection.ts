import type { EventEmitter } from "node:events";
import { TikTokLiveConnection } from "tiktok-live-connector";
import type { WebcastGotHttpConfig } from "tiktok-live-connector";
import EulerStreamApiClient from "tiktok-live-api-sdk";
import { definedKeys } from "@ovation/core/contracts";
import type { TikTokParsedOptions } from "./options.js";

/**
 * Builds tiktok-live-connector's connection with every endpoint it contacts taken from the
 * options, through the library's own constructor options (nothing is patched):
 * - the signing service through `eulerApiInstance` (an Euler Stream API client with `basePath`);
 * - TikTok's website and webcast API through `webConfigOverrides` (`TIKTOK_HOST_WEB`,
 *   `TIKTOK_HOST_WEBCAST`; the library picks the scheme itself: https for loopback hosts, and for
 *   other hosts the http:// URL TikTok redirects to https);
 * - the WebSocket: its URL is the `pushServer` the signing service answers with.
 */
export function createConnection(options: TikTokParsedOptions): TikTokLiveConnection {
  const signer = new EulerStreamApiClient({ basePath: options.signServerUrl.replace(/\/$/, ""), ...definedKeys({ apiKey: options.signApiKey }) });
  return new TikTokLiveConnection(options.uniqueId, {
    eulerApiInstance: signer,
    processInitialData: true,
    fetchRoomInfoOnConnect: true,
    webConfigOverrides: { TIKTOK_HOST_WEB: new URL(options.webUrl).host, TIKTOK_HOST_WEBCAST: new URL(options.webcastUrl).host },
    // The typing asks for a cookieJar, but the library sets its own over whatever is passed.
    ...(options.caCertificate ? { webClientOptions: { https: { certificateAuthority: options.caCertificate } } as WebcastGotHttpConfig } : {}),
  });
}

/**
 * The connection as the Node EventEmitter it is at run time: its TypedEventEmitter typing comes
 * from `typed-emitter`, whose default export does not resolve under NodeNext module resolution.
 */
export function connectionEvents(connection: TikTokLiveConnection): EventEmitter {
  return connection as unknown as EventEmitter;
}
