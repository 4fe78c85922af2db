import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestBrowser, formAction } from "./browser.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";

const PUBLIC = "https://id.ovation.test";
const REDIRECT = "https://app.example.com/callback";
/** What a TLS-offloading proxy in front of the server adds to every request. */
const PROXY_HEADERS = { "x-forwarded-proto": "https", "x-forwarded-host": "id.ovation.test" };

describe("behind a TLS-offloading proxy (identity URL https://...)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ idUrl: PUBLIC });
    await h.createUser({ name: "wes", email: "wes@example.com", password: "wes's long passphrase" });
  });
  afterAll(async () => {
    await h.close();
  });

  /** The proxy's view: public https addresses are served by the loopback server. */
  const local = (url: string) => (url.startsWith(PUBLIC) ? `${h.base}${url.slice(PUBLIC.length)}` : url);

  it("marks the session cookie and the authorization server's cookies Secure, HttpOnly, SameSite=Lax", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const browser = new TestBrowser();
    const setCookies: string[] = [];
    const request = async (url: string, form?: Record<string, string>) => {
      const response = await browser.request(local(url), { headers: PROXY_HEADERS, ...(form ? { form } : {}) });
      setCookies.push(...response.headers.getSetCookie());
      return response;
    };
    const authorize = new URL(`${PUBLIC}/oauth/authorize`);
    authorize.search = new URLSearchParams({ client_id: client.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "user:read", state: "tls" }).toString();
    let response = await request(authorize.href);
    for (let i = 0; i < 5 && response.status >= 300 && response.status < 400; i += 1) {
      response = await request(new URL(response.headers.get("location") ?? "", PUBLIC).href);
    }
    expect(response.status).toBe(200);
    const signIn = await response.text();
    expect(signIn).toContain("Sign in");
    const posted = await request(formAction(signIn, "/login", PUBLIC), { email: "wes@example.com", password: "wes's long passphrase", totp: "" });
    expect(posted.status).toBe(303);
    expect(new URL(posted.headers.get("location") ?? "").origin).toBe(PUBLIC);

    const session = setCookies.find((c) => c.startsWith("ovation_session="));
    expect(session).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    const providerCookies = setCookies.filter((c) => c.startsWith("_ovation_"));
    expect(providerCookies.length).toBeGreaterThan(0);
    for (const cookie of providerCookies) expect(cookie.toLowerCase()).toContain("; secure");
    expect(h.identity.userOfSessionCookie(`ovation_session=${browser.cookie("ovation_session") ?? ""}`)).not.toBeNull();
  });
});
