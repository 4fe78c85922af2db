import * as oidc from "openid-client";
import { expect } from "vitest";
import type { TestBrowser} from "./browser.js";
import { formAction } from "./browser.js";

/** openid-client configured against the identity issuer on loopback (plain HTTP allowed). */
export async function discover(base: string, clientId: string, clientSecret: string | null): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(`${base}/oauth`), clientId, undefined, clientSecret === null ? oidc.None() : oidc.ClientSecretBasic(clientSecret), {
    execute: [oidc.allowInsecureRequests],
  });
}

/**
 * Drives the browser through an authorization request: signs in with `credentials` when the
 * sign-in page shows, approves consent when asked. Returns the URL the server redirected the
 * browser to outside itself (the client's redirect URI) and the pages seen on the way.
 */
export async function runAuthorization(
  browser: TestBrowser,
  base: string,
  authorizeUrl: string,
  credentials: { email: string; password: string; totp?: string } | null,
  options: { consent?: "allow" | "deny" } = {},
): Promise<{ callback: string; pages: string[] }> {
  const pages: string[] = [];
  let step = await browser.follow(authorizeUrl, base);
  for (let i = 0; i < 6; i += 1) {
    if (!step.url.startsWith(base)) return { callback: step.url, pages };
    const html = await step.response.text();
    pages.push(html);
    expect(step.response.status).toBe(200);
    if (html.includes("/login\"")) {
      if (credentials === null) throw new Error("sign-in page shown but no credentials given");
      const response = await browser.request(formAction(html, "/login", base), { form: { email: credentials.email, password: credentials.password, totp: credentials.totp ?? "" } });
      if (response.status !== 303) throw new Error(`sign-in answered ${response.status}: ${/role="alert"[^>]*>([^<]*)/.exec(await response.text())?.[1] ?? "?"}`);
      step = await browser.follow(new URL(response.headers.get("location") ?? "", base).href, base);
    } else if (html.includes("/confirm\"")) {
      const target = options.consent === "deny" ? "/abort" : "/confirm";
      const response = await browser.request(formAction(html, target, base), { form: {} });
      expect(response.status).toBe(303);
      step = await browser.follow(new URL(response.headers.get("location") ?? "", base).href, base);
    } else {
      throw new Error(`unexpected page: ${html.slice(0, 300)}`);
    }
  }
  throw new Error("authorization did not finish");
}

/** GET a JSON API path with a bearer token (and optionally an EAT). */
export async function api(base: string, path: string, token: string | null, init: { method?: string; body?: unknown; eat?: string } = {}): Promise<{ status: number; body: Record<string, unknown> & { length?: number } }> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (init.eat !== undefined) headers["elevated-access-token"] = init.eat;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${base}${path}`, { method: init.method ?? (init.body === undefined ? "GET" : "POST"), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await response.text();
  return { status: response.status, body: text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/**
 * Confirms an API-started link (`POST .../link` answered `{ url, code }`) on its page in `browser`
 * with the one-time code, and returns the platform's authorization URL the page sends the browser to.
 */
export async function confirmApiLink(browser: TestBrowser, started: { url: string; code: string }): Promise<string> {
  const shown = await browser.request(started.url);
  expect(shown.status).toBe(200);
  const html = await shown.text();
  const confirmed = await browser.request(formAction(html, "/oauth/link/", started.url), { form: { code: started.code } });
  expect(confirmed.status).toBe(303);
  return confirmed.headers.get("location") ?? "";
}
