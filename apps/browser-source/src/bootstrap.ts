/**
 * The kinds of browser source (`browser_source_type`): the spec's four and Ovation's overlays
 * `chat`, `events` and `emotewall` (docs/overlays.md).
 */
export const BROWSER_SOURCE_TYPES = ["alerts", "effect-alerts", "scenes", "goalbars", "chat", "events", "emotewall", "queue", "poll"] as const;

/** A kind of browser source. */
export type BrowserSourceType = (typeof BROWSER_SOURCE_TYPES)[number];

/**
 * What the server hands the page, embedded as JSON in `<script id="ovation-bootstrap">`
 * (docs/contracts.md "The browser-source page").
 */
export interface BrowserSourceBootstrap {
  /** The kind of browser source this page shows. */
  type: BrowserSourceType;
  /** The browser source's access token (the last path segment of its URL). */
  access_token: string;
  /** Absolute base URL of the service (no trailing slash); the page fetches `{api_base}/browser-source/...`. */
  api_base: string;
  /** Absolute URL the page connects socket.io to. */
  socket_url: string;
}

/** Id of the `<script type="application/json">` element that carries the bootstrap. */
export const BOOTSTRAP_ELEMENT_ID = "ovation-bootstrap";

/** Id of the element the page renders into; its `data-state` attribute reports what the page is doing. */
export const ROOT_ELEMENT_ID = "ovation-root";

/** Id of the page's own `<script>`, whose `nonce` the page passes on to the variant 3 sandbox. */
export const APP_SCRIPT_ELEMENT_ID = "ovation-app";

/** True when `value` names a browser source type. */
export function isBrowserSourceType(value: unknown): value is BrowserSourceType {
  return typeof value === "string" && (BROWSER_SOURCE_TYPES as readonly string[]).includes(value);
}
