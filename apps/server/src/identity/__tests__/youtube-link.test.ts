import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGoogle } from "@ovation/plugin-youtube/testing";
import { defaultPlatformSettings } from "../platforms/settings.js";
import { TestBrowser, followAcross } from "./browser.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api, confirmApiLink } from "./oauth-helpers.js";

describe("linking YouTube stores the Google tokens with the connection (fake Google on loopback)", () => {
  let h: Harness;
  let google: FakeGoogle;

  beforeAll(async () => {
    google = await FakeGoogle.start();
    const settings = defaultPlatformSettings("youtube", { clientId: google.clientId, clientSecret: google.clientSecret });
    if (settings === null) throw new Error("no youtube settings");
    h = await startHarness({
      platforms: [
        {
          ...settings,
          authorizeUrl: `http://127.0.0.1:${google.port}/o/oauth2/v2/auth`,
          tokenUrl: google.tokenUrl,
          userInfoUrl: `${google.apiUrl}/channels?part=snippet&mine=true`,
        },
      ],
    });
  });
  afterAll(async () => {
    await h.close();
    await google.close();
  });

  it("keeps access and refresh token, expiry and scopes, never showing them in the API", async () => {
    const user = await h.createUser({ name: "yuki", email: "yuki@example.com" });
    const { token } = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] });
    const started = await api(h.base, "/api/users/@me/connections/youtube/link", token, { method: "POST" });
    expect(started.status).toBe(201);
    const browser = new TestBrowser();
    const url = new URL(await confirmApiLink(browser, { url: String(started.body.url), code: String(started.body.code) }));
    expect(url.searchParams.get("access_type")).toBe("offline");
    const done = await followAcross(browser, url.href, "never://");
    expect(await done.response.text()).toContain("Account linked");
    const connection = h.repos.connections.listForUser(user.id).find((c) => c.platform === "youtube");
    expect(connection?.platform_user_id).toBe("UCowner00000000000000000");
    const stored = h.repos.connections.tokensOf(connection?.id ?? 0);
    expect(stored).toMatchObject({ refresh_token: google.refreshToken, scopes: expect.arrayContaining(["https://www.googleapis.com/auth/youtube.force-ssl"]) });
    expect(stored?.access_token).toMatch(/^ya29\.fake-/);
    expect(stored?.expires_at).toBeGreaterThan(Date.now());
    const listed = JSON.stringify((await api(h.base, "/api/users/@me/connections", token)).body);
    expect(listed).not.toContain(google.refreshToken);
    expect(listed).not.toContain("ya29.");
  });
});
