import { readdir, stat } from "node:fs/promises";
import { Agent, get } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_PENDING_FILES } from "../platforms/pending.js";
import { defaultPlatformSettings } from "../platforms/settings.js";
import { TestBrowser, followAcross, formAction } from "./browser.js";
import { startFakeTwitch } from "./fake-twitch.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api, confirmApiLink, discover, runAuthorization } from "./oauth-helpers.js";

const CREDENTIALS = { clientId: "fake-twitch-client", clientSecret: "fake-twitch-secret" };
const REDIRECT = "http://127.0.0.1:9/callback";
const VICTIM_TWITCH = { id: "9001", login: "victim_tv", display_name: "Victim_TV", email: null, profile_image_url: "" };

// Issue 31.1: an attacker starts a link through the API and sends the URL to a victim; the victim's
// click must not link the victim's Twitch account to the attacker's Ovation account.
describe("account links are bound to the browser that completes them (fake Twitch on loopback)", () => {
  let h: Harness;
  let twitch: Awaited<ReturnType<typeof startFakeTwitch>>;

  beforeAll(async () => {
    twitch = await startFakeTwitch(CREDENTIALS);
    const settings = defaultPlatformSettings("twitch", CREDENTIALS, { authorizeUrl: `${twitch.base}/oauth2/authorize`, tokenUrl: `${twitch.base}/oauth2/token`, apiUrl: `${twitch.base}/helix` });
    if (settings === null) throw new Error("no twitch settings");
    h = await startHarness({ platforms: [settings] });
  });
  afterAll(async () => {
    await h.close();
    await twitch.close();
  });

  /** A browser signed in to the identity host (an identity session) as the given account. */
  async function signedInBrowser(credentials: { email: string | null; password: string }): Promise<TestBrowser> {
    const client = await h.client({ redirectUris: [REDIRECT] });
    const config = await discover(h.base, client.client_id, client.client_secret);
    const browser = new TestBrowser();
    const { buildAuthorizationUrl } = await import("openid-client");
    await runAuthorization(browser, h.base, buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "s" }).href, { email: credentials.email ?? "", password: credentials.password });
    expect(browser.cookie("ovation_session")).toBeTruthy();
    return browser;
  }

  const twitchLinks = (userId: number) => h.repos.connections.listForUser(userId).filter((c) => c.platform === "twitch");

  it("a foreign link shows whose account it is and links nothing on a click; the victim's own link then works", async () => {
    const attacker = await h.createUser({ name: "mallory", email: "mallory@example.com" });
    const victim = await h.createUser({ name: "victoria", email: "victoria@example.com" });
    const attackerToken = h.repos.tokens.create({ user_id: attacker.id, name: "t", scopes: ["*"] }).token;
    const victimToken = h.repos.tokens.create({ user_id: victim.id, name: "t", scopes: ["*"] }).token;
    const victimBrowser = await signedInBrowser(victim);

    // 1. The attacker starts a link and sends the URL (not the code) to the victim.
    const started = await api(h.base, "/api/users/@me/connections/twitch/link", attackerToken, { method: "POST" });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ url: expect.stringMatching(/\/oauth\/link\/[A-Za-z0-9_-]+$/), code: expect.stringMatching(/^\d{8}$/), expires_at: expect.any(String) });
    const url = String(started.body.url);

    // 2. The victim opens it: the page names the attacker's account and the victim's own session.
    twitch.setNextUser(VICTIM_TWITCH);
    const shown = await victimBrowser.request(url);
    expect(shown.status).toBe(200);
    const page = await shown.text();
    expect(page).toContain("Link a Twitch account to mallory?");
    expect(page).toContain("You are signed in as <strong>victoria</strong>, not <strong>mallory</strong>");
    expect(page).toContain('name="code"');
    // Nothing left for the platform on opening it.
    expect(shown.headers.get("location")).toBeNull();

    // 3. The click (the form without the code, or a guessed code) goes nowhere.
    const clicked = await victimBrowser.request(formAction(page, "/oauth/link/", h.base), { form: {} });
    expect(clicked.status).toBe(422);
    const guessed = await victimBrowser.request(formAction(page, "/oauth/link/", h.base), { form: { code: "12345678" === started.body.code ? "87654321" : "12345678" } });
    expect(guessed.status).toBe(401);
    expect(guessed.headers.get("location")).toBeNull();
    expect(twitch.tokenRequests.length).toBe(0);
    expect(twitchLinks(attacker.id)).toEqual([]);

    // 4. The attacker confirms the link in their own browser and forwards Twitch's authorize URL
    //    instead: the victim's Twitch sends the victim's browser back, and the callback refuses it.
    const attackerBrowser = new TestBrowser();
    const authorize = await confirmApiLink(attackerBrowser, { url, code: String(started.body.code) });
    expect(authorize.startsWith(`${twitch.base}/oauth2/authorize?`)).toBe(true);
    const forwarded = await followAcross(victimBrowser, authorize, "never://");
    expect(forwarded.response.status).toBe(400);
    expect(await forwarded.response.text()).toContain("started in another browser");
    expect(twitchLinks(attacker.id)).toEqual([]);
    expect(h.repos.connections.findByPlatformId("twitch", VICTIM_TWITCH.id)).toBeNull();

    // 5. The victim's own link, in the victim's signed-in browser: one button, no code, and it works.
    const own = await api(h.base, "/api/users/@me/connections/twitch/link", victimToken, { method: "POST", body: { return_to: `${h.base}/dashboard/#/connections` } });
    expect(own.status).toBe(201);
    const ownPage = await (await victimBrowser.request(String(own.body.url))).text();
    expect(ownPage).toContain("Link a Twitch account to victoria?");
    expect(ownPage).not.toContain('name="code"');
    const toTwitch = await victimBrowser.request(formAction(ownPage, "/oauth/link/", h.base), { form: {} });
    expect(toTwitch.status).toBe(303);
    twitch.setNextUser(VICTIM_TWITCH);
    const back = await followAcross(victimBrowser, toTwitch.headers.get("location") ?? "", `${h.base}/dashboard/`);
    expect(back.url).toBe(`${h.base}/dashboard/#/connections`);
    expect(twitchLinks(victim.id)).toEqual([expect.objectContaining({ platform_user_id: VICTIM_TWITCH.id, username: "victim_tv" })]);
    expect(twitchLinks(attacker.id)).toEqual([]);
  });

  it("burns a link after five wrong codes, refuses a return_to elsewhere and an unknown link", async () => {
    const user = await h.createUser({ name: "otto", email: "otto@example.com" });
    const token = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] }).token;
    const elsewhere = await api(h.base, "/api/users/@me/connections/twitch/link", token, { method: "POST", body: { return_to: "https://evil.example/steal" } });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toMatchObject({ code: "OVATION_ERR_IDENTITY_VALIDATION", errors: { return_to: [expect.stringContaining("return_to")] } });

    const started = await api(h.base, "/api/users/@me/connections/twitch/link", token, { method: "POST" });
    const browser = new TestBrowser();
    const page = await (await browser.request(String(started.body.url))).text();
    const action = formAction(page, "/oauth/link/", h.base);
    const wrong = String(started.body.code) === "00000000" ? "11111111" : "00000000";
    for (let i = 0; i < 4; i += 1) expect((await browser.request(action, { form: { code: wrong } })).status).toBe(401);
    const burned = await browser.request(action, { form: { code: wrong } });
    expect(burned.status).toBe(400);
    expect(await burned.text()).toContain("Too many wrong codes");
    // Even the right code no longer works.
    expect((await browser.request(action, { form: { code: String(started.body.code) } })).status).toBe(400);
    expect((await browser.request(`${h.base}/oauth/link/${"x".repeat(32)}`)).status).toBe(400);
  });

  // Issue 31.5: every unauthenticated `GET /oauth/twitch` used to add an entry to the identity file
  // shared by all users and rewrite it. Now each pending sign-in is a small file of its own, capped.
  it("12,000 unauthenticated sign-in starts leave the identity file as it was and the pending entries capped", async () => {
    const identityFile = join(h.dataDir, "identity.json");
    const before = (await stat(identityFile)).size;
    const total = 12_000;
    let next = 0;
    // node:http on kept-alive connections instead of fetch: the flood's client runs in this process
    // beside the server, and fetch's streams and Response objects cost it more than the server's answer.
    const agent = new Agent({ keepAlive: true, maxSockets: 6 });
    const status = (url: string) =>
      new Promise<number>((resolve, reject) => {
        get(url, { agent }, (response) => {
          response.resume();
          response.once("end", () => resolve(response.statusCode ?? 0));
        }).once("error", reject);
      });
    const worker = async () => {
      while (next < total) {
        next += 1;
        expect(await status(`${h.base}/oauth/twitch`)).toBe(303);
      }
    };
    try {
      await Promise.all(Array.from({ length: 6 }, worker));
    } finally {
      agent.destroy();
    }
    expect((await stat(identityFile)).size).toBe(before);
    const pending = (await readdir(join(h.dataDir, "pending-sign-ins"))).filter((n) => n.endsWith(".json"));
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.length).toBeLessThanOrEqual(DEFAULT_MAX_PENDING_FILES);

    // A sign-in started after the flood still completes (the newest entries are kept).
    const browser = new TestBrowser();
    twitch.setNextUser({ id: "4242", login: "late_larry", display_name: "Late_Larry", email: null, profile_image_url: "" });
    const done = await followAcross(browser, `${h.base}/oauth/twitch`, "never://");
    expect(done.response.status).toBe(200);
    expect(await done.response.text()).toContain("No Ovation account on this server has the Twitch account");
  }, 240_000);
});
