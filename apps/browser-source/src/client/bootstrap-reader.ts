import { APP_SCRIPT_ELEMENT_ID, BOOTSTRAP_ELEMENT_ID, isBrowserSourceType } from "../bootstrap.js";
import type { BrowserSourceBootstrap } from "../bootstrap.js";

/**
 * Reads and checks the bootstrap JSON the server embedded in the page.
 * @throws Error naming the missing or malformed field.
 */
export function readBootstrap(doc: Document): BrowserSourceBootstrap {
  const element = doc.getElementById(BOOTSTRAP_ELEMENT_ID);
  if (!element?.textContent) throw new Error(`bootstrap element #${BOOTSTRAP_ELEMENT_ID} is missing`);
  let value: unknown;
  try {
    value = JSON.parse(element.textContent);
  } catch {
    throw new Error("bootstrap is not valid JSON");
  }
  if (value === null || typeof value !== "object") throw new Error("bootstrap must be an object");
  const record = value as Record<string, unknown>;
  if (!isBrowserSourceType(record.type)) throw new Error("bootstrap.type is not a browser source type");
  for (const key of ["access_token", "api_base", "socket_url"] as const) {
    if (typeof record[key] !== "string" || record[key] === "") throw new Error(`bootstrap.${key} must be a non-empty string`);
  }
  return {
    type: record.type,
    access_token: record.access_token as string,
    api_base: record.api_base as string,
    socket_url: record.socket_url as string,
  };
}

/** The CSP nonce the server gave the page's script (empty when there is none). */
export function readNonce(doc: Document): string {
  const script = doc.getElementById(APP_SCRIPT_ELEMENT_ID);
  return script instanceof HTMLScriptElement ? (script.nonce ?? "") : "";
}
