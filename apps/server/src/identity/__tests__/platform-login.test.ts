import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultPlatformSettings } from "../platforms/settings.js";
import { TestBrowser, followAcross, formAction } from "./browser.js";
import { startFakeTwitch } from "./fake-twitch.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api, confirmApiLink, discover, runAuthorization } from "./oauth-helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const CREDENTIALS = { clientId: "fake-twitch-client", clientSecret: "fake-twitch-secret" };

describe("platform login and linking through the generic OAuth client (fake Twitch on loopback)", () => {
  let h: Harness;
  let twitch: Awaited<ReturnType<typeof startFakeTwitch>>;

  beforeAll(async () => {
    twitch = await startFakeTwitch(CREDENTIALS);
    const settings = defaultPlatformSettings("twitch", CREDENTIALS);
    if (settings === null) throw new Error("no twitch settings");
    h = await startHarness({
      platforms: [{ ...settings, authorizeUrl: `${twitch.base}/oauth2/authorize`, tokenUrl: `${twitch.base}/oauth2/token`, userInfoUrl: `${twitch.base}/helix/users` }],
    });
  });
  afterAll(async () => {
    await h.close();
    await twitch.close();
  });

  /** Leaves the sign-in page of a new authorization request with "Continue with Twitch"; the browser and where the flow stopped. */
  async function continueWithTwitch(): Promise<{ browser: TestBrowser; config: oidc.Configuration; back: { response: Response; url: string } }> {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const browser = new TestBrowser();
    const start = await browser.follow(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read connections", state: "tw" }).href, h.base);
    const page = await start.response.text();
    const link = /href="([^"]*\/platform\/twitch)"/.exec(page)?.[1];
    expect(link).toBeTruthy();
    return { browser, config, back: await followAcross(browser, new URL(link ?? "", h.base).href, REDIRECT) };
  }

  /** Finishes an authorization that came back to the client: its access token. */
  async function tokenOf(config: oidc.Configuration, browser: TestBrowser, back: { url: string }): Promise<string> {
    const callback = back.url.startsWith(REDIRECT) ? back.url : (await runAuthorization(browser, h.base, back.url, null)).callback;
    return (await oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: "tw" })).access_token;
  }

  /** Signs in with Twitch from the sign-in page (creating the account when asked to) and returns the client's token. */
  async function signInWithTwitch(): Promise<{ accessToken: string; browser: TestBrowser }> {
    const { browser, config, back } = await continueWithTwitch();
    if (back.response.status === 200) {
      const page = await back.response.text();
      const created = await browser.request(formAction(page, "/oauth/platform/new-account", h.base), { form: { ticket: /name="ticket" value="([^"]+)"/.exec(page)?.[1] ?? "" } });
      expect(created.status).toBe(303);
      const rest = await followAcross(browser, new URL(created.headers.get("location") ?? "", h.base).href, REDIRECT);
      return { accessToken: await tokenOf(config, browser, rest), browser };
    }
    return { accessToken: await tokenOf(config, browser, back), browser };
  }

  it("says so when no account has the platform account linked, creating an account only when asked, then finds it again", async () => {
    const usersBefore = h.repos.users.list().length;
    const unlinked = await continueWithTwitch();
    expect(unlinked.back.response.status).toBe(200);
    const page = await unlinked.back.response.text();
    expect(page).toContain("No Ovation account on this server has the Twitch account <strong>streamer_sam</strong> linked");
    expect(page).toContain("Sign in with my email and password");
    expect(page).toContain("Create a new Ovation account with Twitch");
    // Nothing was created by coming back from Twitch.
    expect(h.repos.users.list().length).toBe(usersBefore);
    expect(h.repos.connections.findByPlatformId("twitch", "106415581")).toBeNull();
    // The "create" ticket works only in the browser that came back from Twitch.
    const ticket = /name="ticket" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const elsewhere = await new TestBrowser().request(`${h.base}/oauth/platform/new-account`, { form: { ticket } });
    expect(elsewhere.status).toBe(400);
    expect(h.repos.users.list().length).toBe(usersBefore);

    const first = await signInWithTwitch();
    const me = await api(h.base, "/api/users/@me", first.accessToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ name: "streamer_sam", email: "sam@twitch.example", is_shadow: true, has_password: false, avatar: "https://static-cdn.example/sam.png" });
    const connections = await api(h.base, "/api/users/@me/connections?platform=twitch", first.accessToken);
    expect(connections.body).toEqual([expect.objectContaining({ platform: "twitch", platform_user_id: "106415581", username: "streamer_sam" })]);
    expect(h.repos.users.list().length).toBe(usersBefore + 1);
    const exchange = twitch.tokenRequests.at(-1);
    expect(exchange?.get("redirect_uri")).toBe(`${h.base}/oauth/platform/twitch/callback`);

    const second = await continueWithTwitch();
    const token = await tokenOf(second.config, second.browser, second.back);
    expect((await api(h.base, "/api/users/@me", token)).body.id).toBe(me.body.id);
    expect(h.repos.users.list().length).toBe(usersBefore + 1);
  });

  it("Continue with Twitch signs in the account that linked it (never a second account)", async () => {
    const user = await h.createUser({ name: "lena", email: "lena@example.com" });
    const { token } = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] });
    twitch.setNextUser({ id: "555", login: "lena_live", display_name: "Lena_Live", email: "lena@twitch.example", profile_image_url: "" });
    const started = await api(h.base, "/api/users/@me/connections/twitch/link", token, { method: "POST" });
    const linker = new TestBrowser();
    const done = await followAcross(linker, await confirmApiLink(linker, { url: String(started.body.url), code: String(started.body.code) }), "never://");
    expect(await done.response.text()).toContain("Account linked");
    const usersBefore = h.repos.users.list().length;

    twitch.setNextUser({ id: "555", login: "lena_live", display_name: "Lena_Live", email: "lena@twitch.example", profile_image_url: "" });
    const { browser, config, back } = await continueWithTwitch();
    const accessToken = await tokenOf(config, browser, back);
    expect((await api(h.base, "/api/users/@me", accessToken)).body).toMatchObject({ id: user.id, name: "lena" });
    expect(h.repos.users.list().length).toBe(usersBefore);
  });

  it("refuses a platform callback in a browser other than the one that started the sign-in (login CSRF)", async () => {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const attacker = new TestBrowser();
    const start = await attacker.follow(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "csrf" }).href, h.base);
    const link = /href="([^"]*\/platform\/twitch)"/.exec(await start.response.text())?.[1] ?? "";
    const callbackPrefix = `${h.base}/oauth/platform/twitch/callback`;
    const atCallback = await followAcross(attacker, new URL(link, h.base).href, callbackPrefix);
    expect(atCallback.url.startsWith(callbackPrefix)).toBe(true);
    expect(attacker.cookie("ovation_platform_binding")).toMatch(/^[A-Za-z0-9_-]{32,64}$/);

    // The callback link forwarded to someone else's browser signs nobody in.
    const victim = new TestBrowser();
    const forwarded = await victim.request(atCallback.url);
    expect(forwarded.status).toBe(400);
    expect(await forwarded.text()).toContain("started in another browser");
    expect(forwarded.headers.getSetCookie().some((c) => c.startsWith("ovation_session="))).toBe(false);

    // The browser that started it still finishes (the refused attempt did not use the state up).
    const finished = await attacker.request(atCallback.url);
    expect(finished.status).toBe(303);
    expect(finished.headers.get("location")).toContain("/platform-done?ticket=");
  });

  it("links a platform account to a signed-in user and refuses one linked elsewhere", async () => {
    const user = await h.createUser({ name: "nina", email: "nina@example.com" });
    const { token } = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] });
    twitch.setNextUser({ id: "777", login: "nina_live", display_name: "Nina_Live", email: null, profile_image_url: "https://static-cdn.example/n.png" });
    const started = await api(h.base, "/api/users/@me/connections/twitch/link", token, { method: "POST" });
    expect(started.status).toBe(201);
    expect(String(started.body.url).startsWith(`${h.base}/oauth/link/`)).toBe(true);
    const browser = new TestBrowser();
    const authorize = await confirmApiLink(browser, { url: String(started.body.url), code: String(started.body.code) });
    expect(authorize.startsWith(`${twitch.base}/oauth2/authorize?`)).toBe(true);
    const done = await followAcross(browser, authorize, "never://");
    expect(done.response.status).toBe(200);
    expect(await done.response.text()).toContain("Account linked");
    expect((await api(h.base, "/api/users/@me/connections", token)).body).toEqual([expect.objectContaining({ platform: "twitch", platform_user_id: "777" })]);

    twitch.setNextUser({ id: "106415581", login: "streamer_sam", display_name: "Streamer_Sam", email: "sam@twitch.example", profile_image_url: "https://static-cdn.example/sam.png" });
    const again = await api(h.base, "/api/users/@me/connections/twitch/link", token, { method: "POST" });
    const refused = await followAcross(browser, await confirmApiLink(browser, { url: String(again.body.url), code: String(again.body.code) }), "never://");
    expect(refused.response.status).toBe(409);
    expect(await refused.response.text()).toContain("linked to another Ovation account");
  });

  it("refuses unknown platforms, forged states and failed code exchanges", async () => {
    const user = await h.createUser({ name: "olga", email: "olga@example.com" });
    const { token } = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] });
    const unknown = await api(h.base, "/api/users/@me/connections/kick/link", token, { method: "POST" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("OVATION_ERR_IDENTITY_PLATFORM_UNKNOWN");

    const forged = await fetch(`${h.base}/oauth/platform/twitch/callback?code=code1&state=forged`);
    expect(forged.status).toBe(400);

    const started = await api(h.base, "/api/users/@me/connections/twitch/link", token, { method: "POST" });
    const linker = new TestBrowser();
    const state = new URL(await confirmApiLink(linker, { url: String(started.body.url), code: String(started.body.code) })).searchParams.get("state") ?? "";
    const badCode = await linker.request(`${h.base}/oauth/platform/twitch/callback?code=not-a-code&state=${encodeURIComponent(state)}`);
    expect(badCode.status).toBe(502);
    expect(await badCode.text()).toContain("refused the code exchange");
    // The state is single use.
    expect((await linker.request(`${h.base}/oauth/platform/twitch/callback?code=not-a-code&state=${encodeURIComponent(state)}`)).status).toBe(400);
    // The link's page is single use too.
    expect((await linker.request(String(started.body.url))).status).toBe(400);

    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const browser = new TestBrowser();
    const start = await browser.follow(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "x" }).href, h.base);
    const uid = /\/oauth\/interaction\/([^/"]+)\/login/.exec(formAction(await start.response.text(), "/login", h.base))?.[1] ?? "";
    const missing = await browser.request(`${h.base}/oauth/interaction/${uid}/platform/tiktok`);
    expect(missing.status).toBe(404);
  });
});
