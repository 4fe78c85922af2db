/** The origins a browser-source page talks to besides its own. */
export interface ContentSecurityPolicyOrigins {
  /** Origin of `api_base`: config fetches and the page's own assets. */
  api: string;
  /** Origin of `socket_url` (http/https); its ws/wss twin is allowed too. */
  socket: string;
}

/** The ws/wss origin of an http/https origin (socket.io's WebSocket transport needs it in connect-src). */
export function webSocketTwin(origin: string): string {
  return origin.replace(/^http/, "ws");
}

/**
 * The page's Content-Security-Policy. Scripts, styles, fonts and connections are limited to the page's
 * own origin and the api/socket origins; inline script and style run only with the per-render `nonce`
 * (the page's own script and the variant 3 sandbox, which inherits this policy). Images and sounds
 * may come from any http(s) host, because streamers host alert media elsewhere; media cannot run code.
 */
export function buildContentSecurityPolicy(origins: ContentSecurityPolicyOrigins, nonce: string): string {
  const own = unique(["'self'", origins.api, origins.socket]).join(" ");
  const connect = unique(["'self'", origins.api, origins.socket, webSocketTwin(origins.api), webSocketTwin(origins.socket)]).join(" ");
  return [
    "default-src 'none'",
    `script-src ${own} 'nonce-${nonce}'`,
    `style-src ${own} 'nonce-${nonce}'`,
    `font-src ${own} data:`,
    `img-src ${own} https: http: data: blob:`,
    `media-src ${own} https: http: data: blob:`,
    `connect-src ${connect}`,
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** Source expressions without repeats, in first-seen order. */
export function unique(values: string[]): string[] {
  return [...new Set(values)];
}
