import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { decodeJwt } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMAIL_CHANGE_LIMITS } from "../accounts/email-change.js";
import { SIGN_IN_LIMITS } from "../accounts/login.js";
import { TestBrowser, formAction } from "./browser.js";
import { obtainEat } from "./eat-helper.js";
import { fakeClock, startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api, discover, runAuthorization } from "./oauth-helpers.js";

interface Attack {
  id: string;
  kind: string;
  attack: string;
  expect: string;
  wrong_passwords?: number;
  sources?: number;
  addresses?: number;
  password?: string;
  requests?: number;
  codes?: string[];
  scopes?: string[];
}

const corpus = JSON.parse(readFileSync(new URL("../../../../../fixtures/identity-hostile/attacks.json", import.meta.url), "utf8")) as { attacks: Attack[] };
const REDIRECT = "http://127.0.0.1:9/callback";

/** A form POST from a chosen loopback source address (Linux routes all of 127.0.0.0/8 to lo). */
function postFrom(source: string, url: string, form: Record<string, string>, cookie: string): Promise<{ status: number; retryAfter: string | undefined; body: string }> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", localAddress: source, headers: { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body), cookie } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const header = res.headers["retry-after"];
        resolve({ status: res.statusCode ?? 0, retryAfter: typeof header === "string" ? header : undefined, body: Buffer.concat(chunks).toString("utf8") });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("identity hostile corpus (fixtures/identity-hostile)", () => {
  const clock = fakeClock(Date.now());
  let h: Harness;
  let config: oidc.Configuration;

  /** A fresh sign-in step: the form's action and the cookies that go with it. */
  async function signInStep(): Promise<{ action: string; cookie: string }> {
    const browser = new TestBrowser();
    const page = await browser.follow(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "x" }).href, h.base);
    return { action: formAction(await page.response.text(), "/login", h.base), cookie: browser.cookieHeader() };
  }

  beforeAll(async () => {
    h = await startHarness({ clock });
    const client = await h.client({ redirectUris: [REDIRECT] });
    config = await discover(h.base, client.client_id, client.client_secret);
  });
  afterAll(async () => {
    await h.close();
  });

  const handlers: Record<string, (attack: Attack) => Promise<void>> = {
    "sign-in-guessing": async (attack) => {
      const owner = await h.createUser({ name: "gus", email: "gus@example.com" });
      const step = await signInStep();
      const answers = [];
      for (let i = 0; i < (attack.wrong_passwords ?? 0); i += 1) answers.push(await postFrom("127.0.0.1", step.action, { email: "gus@example.com", password: `guess ${i}`, totp: "" }, step.cookie));
      expect(answers.slice(0, SIGN_IN_LIMITS.pair.free).map((a) => a.status)).toEqual(Array(SIGN_IN_LIMITS.pair.free).fill(401));
      const slowed = answers[answers.length - 1];
      expect(slowed?.status).toBe(429);
      expect(Number(slowed?.retryAfter)).toBeGreaterThanOrEqual(1);
      // The owner, from another source, is not held back by the guessing source's failures.
      const ownerStep = await signInStep();
      const ownerAnswer = await postFrom("127.0.0.2", ownerStep.action, { email: "gus@example.com", password: owner.password, totp: "" }, ownerStep.cookie);
      expect(ownerAnswer.status).toBe(303);
    },
    "distributed-guessing": async (attack) => {
      const owner = await h.createUser({ name: "dee", email: "dee@example.com" });
      const step = await signInStep();
      const statuses: number[] = [];
      for (let i = 0; i < (attack.sources ?? 0); i += 1) {
        statuses.push((await postFrom(`127.0.0.${3 + i}`, step.action, { email: "dee@example.com", password: `wrong ${i}`, totp: "" }, step.cookie)).status);
      }
      // The attackers are slowed on this address too, once it had its free failures.
      expect(statuses.slice(0, SIGN_IN_LIMITS.address.free)).toEqual(Array(SIGN_IN_LIMITS.address.free).fill(401));
      expect(statuses.slice(SIGN_IN_LIMITS.address.free).every((s) => s === 429)).toBe(true);
      const ownerStep = await signInStep();
      const slowed = await postFrom("127.0.0.2", ownerStep.action, { email: "dee@example.com", password: owner.password, totp: "" }, ownerStep.cookie);
      expect(slowed.status).toBe(429);
      const wait = Number(slowed.retryAfter);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(SIGN_IN_LIMITS.address.maxMs / 1000);
      clock.advance(wait * 1000);
      expect((await postFrom("127.0.0.2", ownerStep.action, { email: "dee@example.com", password: owner.password, totp: "" }, ownerStep.cookie)).status).toBe(303);
    },
    "password-spraying": async (attack) => {
      const step = await signInStep();
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof postFrom>> | undefined;
      for (let i = 0; i < (attack.addresses ?? 0); i += 1) {
        last = await postFrom("127.0.0.50", step.action, { email: `spray${i}@example.com`, password: attack.password ?? "x", totp: "" }, step.cookie);
        statuses.push(last.status);
      }
      expect(statuses.slice(0, SIGN_IN_LIMITS.source.free)).toEqual(Array(SIGN_IN_LIMITS.source.free).fill(401));
      expect(statuses.slice(SIGN_IN_LIMITS.source.free).every((s) => s === 429)).toBe(true);
      expect(Number(last?.retryAfter)).toBeGreaterThanOrEqual(1);
    },
    "update-email-flood": async (attack) => {
      const user = await h.createUser({ name: "flo", email: "flo@example.com" });
      const token = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] }).token;
      const eat = await obtainEat(h, token, "flo@example.com");
      const before = h.smtp.mails.length;
      const answers = [];
      for (let i = 0; i < (attack.requests ?? 0); i += 1) answers.push(await api(h.base, "/api/users/@me/update-email", token, { body: { email: `flood${i}@example.com` }, eat }));
      expect(answers.slice(0, EMAIL_CHANGE_LIMITS.perUser).every((a) => a.status === 202)).toBe(true);
      expect(answers.slice(EMAIL_CHANGE_LIMITS.perUser).every((a) => a.status === 429 && a.body.code === "OVATION_ERR_IDENTITY_RATE_LIMITED")).toBe(true);
      const raw = await fetch(`${h.base}/api/users/@me/update-email`, { method: "POST", headers: { authorization: `Bearer ${token}`, "elevated-access-token": eat, "content-type": "application/json" }, body: JSON.stringify({ email: "one.more@example.com" }) });
      expect(raw.status).toBe(429);
      expect(Number(raw.headers.get("retry-after"))).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(h.smtp.mails.length - before).toBe(EMAIL_CHANGE_LIMITS.perUser);
    },
    "update-email-probe": async () => {
      await h.createUser({ name: "owner", email: "owner@example.com" });
      const user = await h.createUser({ name: "probe", email: "probe@example.com" });
      const token = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] }).token;
      const eat = await obtainEat(h, token, "probe@example.com");
      const taken = await api(h.base, "/api/users/@me/update-email", token, { body: { email: "owner@example.com" }, eat });
      const free = await api(h.base, "/api/users/@me/update-email", token, { body: { email: "nobody@example.com" }, eat });
      expect([taken.status, taken.body.message, taken.body.status]).toEqual([free.status, free.body.message, free.body.status]);
      expect((await h.smtp.waitFor("owner@example.com")).subject).toBe("Someone tried to use your email address");
    },
    "email-link-prefetch": async () => {
      const user = await h.createUser({ name: "pre", email: "pre@example.com" });
      const token = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] }).token;
      const eat = await obtainEat(h, token, "pre@example.com");
      expect((await api(h.base, "/api/users/@me/update-email", token, { body: { email: "pre.new@example.com" }, eat })).status).toBe(202);
      const link = /(http:\/\/\S+\/api\/email\/verify\?token=\S+)/.exec((await h.smtp.waitFor("pre.new@example.com")).text)?.[1] ?? "";
      expect((await fetch(link)).status).toBe(200);
      expect((await fetch(link)).status).toBe(200);
      expect(h.repos.users.get(user.id)?.email).toBe("pre@example.com");
    },
    "eat-malformed-code": async (attack) => {
      const user = await h.createUser({ name: "mal", email: "mal@example.com" });
      const token = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] }).token;
      expect((await api(h.base, "/api/eat/request-verification", token, { method: "POST" })).status).toBe(202);
      const code = /verification code is: (\d{6})/.exec((await h.smtp.waitFor("mal@example.com")).text)?.[1] ?? "";
      for (const bad of attack.codes ?? []) {
        const answer = await api(h.base, "/api/eat/verify-code", token, { body: { code: bad } });
        expect(answer.status).toBe(422);
        expect(answer.body.code).toBe("OVATION_ERR_IDENTITY_VALIDATION");
        expect(Object.keys(answer.body.errors as object)).toEqual(["code"]);
      }
      expect(h.identity.store.data.eat_codes.find((c) => c.user_id === user.id)?.wrong_attempts).toBe(0);
      expect((await api(h.base, "/api/eat/verify-code", token, { body: { code } })).status).toBe(201);
    },
    "unknown-scope": async (attack) => {
      for (const scope of attack.scopes ?? []) {
        const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: `user:read ${scope}`, state: "u" });
        const answer = new URL((await new TestBrowser().follow(url.href, h.base)).url);
        expect(answer.searchParams.get("error")).toBe("invalid_scope");
        expect(answer.searchParams.get("error_description")).toContain(scope);
      }
    },
    "forged-access-token": async () => {
      const user = await h.createUser({ name: "forge", email: "forge@example.com" });
      const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "user:read", state: "f" });
      const { callback } = await runAuthorization(new TestBrowser(), h.base, url.href, { email: "forge@example.com", password: user.password });
      const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { expectedState: "f" });
      const [header, , signature] = tokens.access_token.split(".");
      const claims = decodeJwt(tokens.access_token);
      const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, scopes: ["*"] })).toString("base64url")}.${signature}`;
      expect((await api(h.base, "/api/users/@me", forged)).status).toBe(401);
      expect((await api(h.base, "/api/users/@me", String(claims.jti))).status).toBe(401);
      expect((await oidc.tokenIntrospection(config, forged)).active).toBe(false);
    },
  };

  it("has a handler for every attack of the corpus", () => {
    expect(corpus.attacks.length).toBeGreaterThan(0);
    expect(corpus.attacks.filter((a) => handlers[a.kind] === undefined).map((a) => a.id)).toEqual([]);
  });

  for (const attack of corpus.attacks) {
    it(`${attack.id}: ${attack.expect}`, async () => {
      const handler = handlers[attack.kind];
      if (handler === undefined) throw new Error(`no handler for ${attack.kind}`);
      await handler(attack);
    }, 60_000);
  }
});
