import { MIMEType } from "node:util";
import type { GuardedHttpClient } from "./guarded-client.js";
import { NET_ERROR_CODES, NetError } from "./net-error.js";
import { OVATION_PROXY_PASS_VERSION } from "./signature.js";

/** Methods `json(method, url)` accepts. */
export const JSON_CALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** What a template call is made for: the channel (rate limit) and the user's signing secret. */
export interface TemplateCallContext {
  channel: string;
  signingSecret: string;
}

/** The JSON body `proxy_pass(url)` POSTs. */
export interface ProxyPassBody {
  version: typeof OVATION_PROXY_PASS_VERSION;
  event: unknown;
  command: unknown;
  args: readonly string[];
}

/** `type/subtype` made only of token characters, nothing around it. */
const BARE_ESSENCE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i;

/**
 * The media type (`type/subtype`, lowercased, parameters dropped) of a `Content-Type` value, or null
 * when it is not one: `text/plain; charset=utf-8` is `text/plain`, `text/plainx` is not.
 */
export function mediaTypeOf(contentType: string): string | null {
  // The common answers need no parser: a bare essence is its own media type.
  if (BARE_ESSENCE.test(contentType)) return contentType.toLowerCase();
  try {
    return new MIMEType(contentType).essence;
  } catch {
    return null;
  }
}

/**
 * `proxy_pass(url)`: POSTs `{version, event, command, args}` as JSON; a 2xx `text/plain` reply is the
 * command's output. Throws `NetError` otherwise (refusal, timeout, status, content type, size).
 */
export async function proxyPass(client: GuardedHttpClient, context: TemplateCallContext, url: string, payload: Omit<ProxyPassBody, "version">): Promise<string> {
  const body = JSON.stringify({ version: OVATION_PROXY_PASS_VERSION, event: payload.event, command: payload.command, args: payload.args });
  const res = await client.request({
    channel: context.channel,
    signingSecret: context.signingSecret,
    method: "POST",
    url,
    headers: { "content-type": "application/json", accept: "text/plain" },
    body,
  });
  if (res.status < 200 || res.status > 299) {
    throw new NetError(NET_ERROR_CODES.status, `proxy_pass: ${new URL(res.url).host} answered HTTP ${res.status}`, { details: { status: res.status } });
  }
  if (mediaTypeOf(res.contentType) !== "text/plain") {
    throw new NetError(NET_ERROR_CODES.contentType, `proxy_pass: the reply must be text/plain, got ${res.contentType || "no content type"}`, {
      details: { contentType: res.contentType },
    });
  }
  return res.body;
}

/**
 * `json(method, url)`: the parsed JSON reply, or null when the call fails (timeout, status outside
 * 2xx, too large, not JSON, unreachable). Refusals by policy (bad URL or scheme, non-public
 * address, rate limit, unknown method) throw `NetError` so the template author sees why.
 */
export async function fetchJson(client: GuardedHttpClient, context: TemplateCallContext, method: string, url: string): Promise<unknown> {
  const upper = String(method).toUpperCase();
  if (!(JSON_CALL_METHODS as readonly string[]).includes(upper)) {
    throw new NetError(NET_ERROR_CODES.method, `json: method must be one of ${JSON_CALL_METHODS.join(", ")}, got "${String(method).slice(0, 20)}"`);
  }
  try {
    const res = await client.request({
      channel: context.channel,
      signingSecret: context.signingSecret,
      method: upper,
      url,
      headers: { accept: "application/json" },
    });
    if (res.status < 200 || res.status > 299) return null;
    return JSON.parse(res.body) as unknown;
  } catch (error) {
    if (error instanceof NetError && error.isRefusal) throw error;
    return null;
  }
}
