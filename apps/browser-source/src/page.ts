import { randomBytes } from "node:crypto";
import {
  APP_SCRIPT_ELEMENT_ID,
  BOOTSTRAP_ELEMENT_ID,
  BROWSER_SOURCE_TYPES,
  ROOT_ELEMENT_ID,
  isBrowserSourceType,
} from "./bootstrap.js";
import type { BrowserSourceBootstrap } from "./bootstrap.js";
import { buildContentSecurityPolicy } from "./csp.js";
import { BrowserSourcePageError } from "./errors.js";
import { escapeHtml, jsonForScriptElement } from "./html.js";

const MAX_TOKEN_LENGTH = 256;

function httpOrigin(field: string, value: unknown): { origin: string; base: string } {
  if (typeof value !== "string" || value.length === 0) throw new BrowserSourcePageError(field, "must be a non-empty string");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BrowserSourcePageError(field, "must be an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new BrowserSourcePageError(field, "must be an http(s) URL");
  if (url.search !== "" || url.hash !== "") throw new BrowserSourcePageError(field, "must not carry a query or fragment");
  return { origin: url.origin, base: `${url.origin}${url.pathname}`.replace(/\/+$/, "") };
}

function checkedBootstrap(input: BrowserSourceBootstrap): BrowserSourceBootstrap {
  if (!isBrowserSourceType(input.type)) {
    throw new BrowserSourcePageError("type", `must be one of ${BROWSER_SOURCE_TYPES.join(", ")}`);
  }
  const token: unknown = input.access_token;
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9._~-]+$/.test(token)) {
    throw new BrowserSourcePageError("access_token", `must be 1..${MAX_TOKEN_LENGTH} URL-safe characters`);
  }
  return {
    type: input.type,
    access_token: token,
    api_base: httpOrigin("api_base", input.api_base).base,
    socket_url: httpOrigin("socket_url", input.socket_url).base,
  };
}

const TITLES: Record<BrowserSourceBootstrap["type"], string> = {
  alerts: "Ovation alerts",
  "effect-alerts": "Ovation effect alerts",
  scenes: "Ovation scene",
  goalbars: "Ovation goal bar",
  chat: "Ovation chat",
  events: "Ovation events",
  emotewall: "Ovation emote wall",
  queue: "Ovation viewer queue",
  poll: "Ovation poll",
};

/**
 * Renders the browser-source page for one browser source. The bootstrap is embedded as JSON that
 * cannot break out of its script element; a strict Content-Security-Policy (meta element) limits the
 * page to its own origin and the api/socket origins; the script, stylesheet and fonts load from
 * `{api_base}/browser-source/assets/` (serve {@link assetsDir} there). No external assets.
 *
 * @throws BrowserSourcePageError when a field is unusable (the error names it).
 */
export function renderBrowserSourcePage(input: BrowserSourceBootstrap): string {
  const bootstrap = checkedBootstrap(input);
  const nonce = randomBytes(16).toString("base64");
  const csp = buildContentSecurityPolicy(
    { api: new URL(bootstrap.api_base).origin, socket: new URL(bootstrap.socket_url).origin },
    nonce,
  );
  const assets = `${bootstrap.api_base}/browser-source/assets`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(TITLES[bootstrap.type])}</title>
<link rel="stylesheet" href="${escapeHtml(`${assets}/app.css`)}">
<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">${jsonForScriptElement(bootstrap)}</script>
<script src="${escapeHtml(`${assets}/app.js`)}" id="${APP_SCRIPT_ELEMENT_ID}" nonce="${escapeHtml(nonce)}" defer></script>
</head>
<body>
<div id="${ROOT_ELEMENT_ID}" data-type="${escapeHtml(bootstrap.type)}" data-state="loading"></div>
</body>
</html>
`;
}

/**
 * Renders the plain page served for a bad or revoked token: the message (and an optional sentence of
 * detail) as text, no data, no script.
 */
export function renderBrowserSourceErrorPage(message: string, detail?: string): string {
  const nonce = randomBytes(16).toString("base64");
  const body = detail === undefined ? `<p id="ovation-error">${escapeHtml(message)}</p>` : `<h1 id="ovation-error">${escapeHtml(message)}</h1>\n<p>${escapeHtml(detail)}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${escapeHtml(nonce)}'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(message)}</title>
<style nonce="${escapeHtml(nonce)}">body{margin:0;padding:1rem;font:16px/1.4 system-ui,sans-serif;color:#fff;background:rgba(0,0,0,.6)}h1{font-size:1.25rem;margin:0 0 .5rem}p{margin:0}</style>
</head>
<body data-state="error">
${body}
</body>
</html>
`;
}
