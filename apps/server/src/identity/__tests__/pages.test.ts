import { describe, expect, it } from "vitest";
import { renderConsent } from "../pages/consent.js";
import { renderMessage } from "../pages/message.js";
import { renderSignIn } from "../pages/sign-in.js";

const HOSTILE = `"><script>alert(1)</script><img src=x onerror=alert(2)>`;

describe("identity pages escape what they show", () => {
  it("escapes client names, emails, errors, user names and uids", () => {
    const pages = [
      renderSignIn({ uid: `u"1`, clientName: HOSTILE, email: HOSTILE, error: HOSTILE, platforms: [{ platform: "twitch", displayName: HOSTILE }] }),
      renderConsent({ uid: "u1", clientName: HOSTILE, userName: HOSTILE, scopes: [HOSTILE, "user:read"] }),
      renderMessage(HOSTILE, HOSTILE),
    ];
    for (const html of pages) {
      expect(html).not.toContain("<script>");
      expect(html).not.toContain("<img");
      expect(html).toContain("&#60;script&#62;");
    }
    expect(pages[0]).toContain('action="/oauth/interaction/u%221/login"');
  });

  it("labels every field and marks the error for assistive technology", () => {
    const html = renderSignIn({ uid: "abc", clientName: "App", error: "Wrong.", errorField: "password", platforms: [] });
    for (const id of ["email", "password", "totp"]) {
      expect(html).toContain(`<label for="${id}"`);
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain('role="alert"');
    expect(html).toMatch(/id="password"[^>]*aria-invalid="true" aria-describedby="password-error"/);
    expect(html).not.toMatch(/id="email"[^>]*aria-invalid/);
    expect(html).toContain('<p class="error" role="alert" id="password-error">Wrong.</p>');
    expect(html).toContain('autocomplete="current-password"');
    expect(html).not.toMatch(/<link|<script|https?:\/\//);
  });
});
