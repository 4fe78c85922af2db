import type { Redis } from "ioredis";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOwnRedis } from "../../__tests__/services/redis.js";
import type { OwnRedis } from "../../__tests__/services/redis.js";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { LoginThrottle, SIGN_IN_LIMITS } from "../../identity/accounts/login.js";
import { TestBrowser, formAction } from "../../identity/__tests__/browser.js";
import { startHarness } from "../../identity/__tests__/harness.js";
import type { Harness } from "../../identity/__tests__/harness.js";
import { discover } from "../../identity/__tests__/oauth-helpers.js";
import { closeRedis, openRedis } from "../connection.js";
import { redisTimeLogs } from "../time-log.js";
import { RedisWindowCounter } from "../window-counter.js";

const REDIRECT = "http://127.0.0.1:9/callback";

// The identity module of one node on Redis; "another node" is a LoginThrottle on its own connection.
describe("identity sign-in limits through Redis", () => {
  let own: OwnRedis;
  let node: Redis;
  let other: Redis;
  let h: Harness;
  let config: oidc.Configuration;
  beforeAll(async () => {
    own = await startOwnRedis();
    node = await openRedis(own.url, { name: "identity-node", failFast: true });
    other = await openRedis(own.url, { name: "identity-other", failFast: true });
    h = await startHarness({ shared: { timeLogs: redisTimeLogs(node), eatAttempts: new RedisWindowCounter(node, "ovation:eat-attempts:") } });
    const client = await h.client({ redirectUris: [REDIRECT] });
    config = await discover(h.base, client.client_id, client.client_secret);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await closeRedis(node);
    await closeRedis(other);
    await own?.close();
  });

  async function signIn(email: string, password: string): Promise<{ status: number; body: string; retryAfter: string | null }> {
    const browser = new TestBrowser();
    const page = await browser.follow(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "x" }).href, h.base);
    const action = formAction(await page.response.text(), "/login", h.base);
    const response = await fetch(action, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: browser.cookieHeader() },
      body: new URLSearchParams({ email, password, totp: "" }).toString(),
    });
    return { status: response.status, body: await response.text(), retryAfter: response.headers.get("retry-after") };
  }

  it("failures counted by another node slow this node's sign-in; with Redis down sign-in answers 503 until it is back", async () => {
    const user = await h.createUser({ name: "gus", email: "gus@example.com" });
    const elsewhere = new LoginThrottle(Date.now, redisTimeLogs(other));
    for (let i = 0; i < SIGN_IN_LIMITS.pair.free; i++) await elsewhere.fail("gus@example.com", "127.0.0.1");
    const slowed = await signIn("gus@example.com", user.password);
    expect(slowed.status).toBe(429);
    expect(Number(slowed.retryAfter)).toBeGreaterThanOrEqual(1);

    await own.kill();
    const refused = await signIn("gus@example.com", user.password);
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe("30");
    expect(refused.body).toContain("Sign-in is unavailable for a moment");

    await own.start();
    await waitFor(() => node.status === "ready");
    // Redis came back empty: the failures are gone, and the right password signs in.
    const signedIn = await signIn("gus@example.com", user.password);
    expect([302, 303]).toContain(signedIn.status);
  }, 60_000);
});
