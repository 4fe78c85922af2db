import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeKick } from "@ovation/plugin-kick/testing";
import { defaultPlatformSettings } from "../platforms/settings.js";
import { TestBrowser, followAcross } from "./browser.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api, confirmApiLink } from "./oauth-helpers.js";

describe("linking Kick (OAuth 2.1, PKCE S256) stores the tokens with the connection (fake Kick on loopback)", () => {
  let h: Harness;
  let kick: FakeKick;

  beforeAll(async () => {
    kick = await FakeKick.start();
    const settings = defaultPlatformSettings("kick", { clientId: kick.clientId, clientSecret: kick.clientSecret });
    if (settings === null) throw new Error("no kick settings");
    h = await startHarness({ platforms: [{ ...settings, authorizeUrl: kick.authorizeUrl, tokenUrl: kick.tokenUrl, userInfoUrl: `${kick.apiUrl}/users` }] });
  });
  afterAll(async () => {
    await h.close();
    await kick.close();
  });

  it("asks for the plugin's scopes with a PKCE challenge and keeps access and refresh token, never showing them", async () => {
    const user = await h.createUser({ name: "kiki", email: "kiki@example.com" });
    const { token } = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] });
    const started = await api(h.base, "/api/users/@me/connections/kick/link", token, { method: "POST" });
    expect(started.status).toBe(201);
    const browser = new TestBrowser();
    const url = new URL(await confirmApiLink(browser, { url: String(started.body.url), code: String(started.body.code) }));
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("scope")?.split(" ")).toEqual(["user:read", "channel:read", "chat:write", "events:subscribe"]);
    const done = await followAcross(browser, url.href, "never://");
    expect(await done.response.text()).toContain("Account linked");
    const connection = h.repos.connections.listForUser(user.id).find((c) => c.platform === "kick");
    expect(connection).toMatchObject({ platform_user_id: "123456789", username: "KickStreamer" });
    const stored = h.repos.connections.tokensOf(connection?.id ?? 0);
    expect(stored).toMatchObject({ refresh_token: kick.refreshToken, scopes: expect.arrayContaining(["chat:write", "events:subscribe"]) });
    expect(stored?.access_token).toMatch(/^kick-access-/);
    expect(stored?.expires_at).toBeGreaterThan(Date.now());
    const listed = JSON.stringify((await api(h.base, "/api/users/@me/connections", token)).body);
    expect(listed).not.toContain(kick.refreshToken);
    expect(listed).not.toContain("kick-access-");
  });
});
