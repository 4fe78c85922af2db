import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../accounts/passwords.js";
import { obtainEat } from "./eat-helper.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api } from "./oauth-helpers.js";

describe("identity API: @me, connections, email, password, tokens, deletion", () => {
  let h: Harness;
  let dana: { id: number; token: string; password: string };

  async function localUser(name: string, email: string | null, scopes: string[] = ["*"]) {
    const user = await h.createUser({ name, email });
    const { token } = h.repos.tokens.create({ user_id: user.id, name: "test", scopes });
    return { id: user.id, token, password: user.password };
  }
  function shadowUser(name: string, email: string | null = null) {
    const user = h.repos.users.create({ name, email, password_hash: null });
    const { token } = h.repos.tokens.create({ user_id: user.id, name: "test", scopes: ["*"] });
    return { id: user.id, token };
  }

  beforeAll(async () => {
    h = await startHarness();
    dana = await localUser("dana", "dana@example.com");
    h.repos.connections.upsert({ user_id: dana.id, platform: "twitch", platform_user_id: "106415581", username: "dana_tv" });
    h.repos.connections.upsert({ user_id: dana.id, platform: "youtube", platform_user_id: "UC123", username: "Dana" });
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers 401 without or with an unknown bearer token", async () => {
    for (const token of [null, "nonsense", "ovpat_1_" + "a".repeat(43)]) {
      const r = await api(h.base, "/api/users/@me", token);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ message: "Unauthenticated.", code: "OVATION_ERR_IDENTITY_UNAUTHENTICATED" });
    }
  });

  it("shows the current user and their connections, filtered by platform", async () => {
    const me = await api(h.base, "/api/users/@me", dana.token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: dana.id, name: "dana", email: "dana@example.com", avatar: null, has_password: true, is_shadow: false, two_factor_enabled: false });
    const all = await api(h.base, "/api/users/@me/connections", dana.token);
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(2);
    const twitch = await api(h.base, "/api/users/@me/connections?platform=twitch", dana.token);
    expect(twitch.body).toEqual([expect.objectContaining({ platform: "twitch", platform_user_id: "106415581", platform_id: "106415581", username: "dana_tv" })]);
    // The reference's record, beside our own fields.
    expect(twitch.body).toEqual([expect.objectContaining({ user_id: dana.id, scopes: expect.any(Array), expires_at: null, platform_name: "Twitch", platform_login: "dana_tv", display_name: "dana_tv" })]);
    const unknown = await api(h.base, "/api/users/@me/connections?platform=myspace", dana.token);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual([]);
  });

  it("update-email: 401 without EAT, 422 on a bad address, mails a link, resends for the same address, verifies", async () => {
    const noEat = await api(h.base, "/api/users/@me/update-email", dana.token, { body: { email: "dana.new@example.com" } });
    expect(noEat.status).toBe(401);
    expect(noEat.body.code).toBe("OVATION_ERR_IDENTITY_EAT_REQUIRED");
    const eat = await obtainEat(h, dana.token, "dana@example.com");
    for (const body of [{ email: "not-an-address" }, {}, { email: 42 }]) {
      const invalid = await api(h.base, "/api/users/@me/update-email", dana.token, { body, eat });
      expect(invalid.status).toBe(422);
      expect(invalid.body.code).toBe("OVATION_ERR_IDENTITY_VALIDATION");
      expect(Object.keys(invalid.body.errors as object)).toEqual(["email"]);
    }
    const sent = await api(h.base, "/api/users/@me/update-email", dana.token, { body: { email: "dana.new@example.com" }, eat });
    expect(sent.status).toBe(202);
    expect(sent.body.status).toBe("sent");
    const first = await h.smtp.waitFor("dana.new@example.com", 1);
    const again = await api(h.base, "/api/users/@me/update-email", dana.token, { body: { email: "dana.new@example.com" }, eat });
    expect(again.body.status).toBe("resent");
    const second = await h.smtp.waitFor("dana.new@example.com", 2);
    expect((await api(h.base, "/api/users/@me", dana.token)).body).toMatchObject({ email: "dana@example.com", pending_email: "dana.new@example.com" });

    const oldLink = /(http:\/\/\S+\/api\/email\/verify\?token=\S+)/.exec(first.text)?.[1] ?? "";
    const link = /(http:\/\/\S+\/api\/email\/verify\?token=\S+)/.exec(second.text)?.[1] ?? "";
    expect(link.startsWith(h.base)).toBe(true);
    expect((await fetch(oldLink)).status).toBe(400);
    // Opening the link (what a mail scanner does) confirms nothing; the page's button does.
    const opened = await fetch(link);
    expect(opened.status).toBe(200);
    const page = await opened.text();
    expect(page).toContain("dana.new@example.com");
    expect(page).toContain('<form method="post" action="/api/email/verify">');
    expect((await api(h.base, "/api/users/@me", dana.token)).body).toMatchObject({ email: "dana@example.com", pending_email: "dana.new@example.com" });
    const token = new URL(link).searchParams.get("token") ?? "";
    const confirmed = await fetch(`${h.base}/api/email/verify`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token }).toString() });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("Email confirmed");
    // The old address is told.
    expect(h.smtp.mails.some((m) => m.to.includes("dana@example.com") && m.subject === "Your Ovation email address was changed" && m.text.includes("dana.new@example.com"))).toBe(true);
    const me = await api(h.base, "/api/users/@me", dana.token);
    expect(me.body).toMatchObject({ email: "dana.new@example.com", pending_email: null });
    expect(me.body.email_verified_at).not.toBeNull();
    expect((await fetch(link)).status).toBe(400);

    const other = await localUser("erin", "erin@example.com");
    const otherEat = await obtainEat(h, other.token, "erin@example.com");
    // A taken address answers like a free one; its owner hears of it by mail.
    const taken = await api(h.base, "/api/users/@me/update-email", other.token, { body: { email: "DANA.NEW@example.com" }, eat: otherEat });
    const free = await api(h.base, "/api/users/@me/update-email", other.token, { body: { email: "erin.other@example.com" }, eat: otherEat });
    expect(taken.status).toBe(202);
    expect(free.status).toBe(202);
    expect(Object.keys(taken.body).sort()).toEqual(Object.keys(free.body).sort());
    expect([taken.body.message, taken.body.status]).toEqual([free.body.message, free.body.status]);
    const warned = await h.smtp.waitFor("dana.new@example.com", 3);
    expect(warned.subject).toBe("Someone tried to use your email address");
  });

  it("associate-password: only for shadow accounts, with documented password rules", async () => {
    const local = await api(h.base, "/api/users/@me/associate-password", dana.token, { body: { password: "another good passphrase" } });
    expect(local.status).toBe(409);
    expect(local.body.code).toBe("OVATION_ERR_IDENTITY_NOT_SHADOW");

    const shadow = shadowUser("frank_tv");
    expect((await api(h.base, "/api/users/@me", shadow.token)).body).toMatchObject({ is_shadow: true, has_password: false });
    for (const [password, message] of [
      ["short", "The password must be at least 10 characters."],
      ["aaaaaaaaaaaa", "The password must not repeat one character."],
      ["1234567890", "The password is too common."],
      ["frank_tv", "The password must be at least 10 characters."],
    ] as const) {
      const r = await api(h.base, "/api/users/@me/associate-password", shadow.token, { body: { password } });
      expect(r.status).toBe(422);
      expect((r.body.errors as Record<string, string[]>).password).toContain(message);
    }
    const missing = await api(h.base, "/api/users/@me/associate-password", shadow.token, { body: {} });
    expect(missing.status).toBe(422);
    const ok = await api(h.base, "/api/users/@me/associate-password", shadow.token, { body: { password: "frank's long passphrase" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ has_password: true, is_shadow: false });
    const stored = h.repos.users.get(shadow.id)?.password_hash ?? "";
    expect(stored.startsWith("$argon2id$")).toBe(true);
    expect(await verifyPassword(stored, "frank's long passphrase")).toBe(true);
    expect((await api(h.base, "/api/users/@me/associate-password", shadow.token, { body: { password: "frank's long passphrase" } })).status).toBe(409);

    const shadowWithMail = shadowUser("gina_tv", "gina@example.com");
    const needsEat = await api(h.base, "/api/users/@me/associate-password", shadowWithMail.token, { body: { password: "gina's long passphrase" } });
    expect(needsEat.status).toBe(401);
    expect(needsEat.body.code).toBe("OVATION_ERR_IDENTITY_EAT_REQUIRED");
    const eat = await obtainEat(h, shadowWithMail.token, "gina@example.com");
    expect((await api(h.base, "/api/users/@me/associate-password", shadowWithMail.token, { body: { password: "gina's long passphrase" }, eat })).status).toBe(200);
  });

  it("change password needs an EAT and the current password", async () => {
    const user = await localUser("hank", "hank@example.com");
    const noEat = await api(h.base, "/api/users/@me/password", user.token, { body: { current_password: user.password, password: "a brand new passphrase" } });
    expect(noEat.status).toBe(401);
    expect(noEat.body.code).toBe("OVATION_ERR_IDENTITY_EAT_REQUIRED");
    const eat = await obtainEat(h, user.token, "hank@example.com");
    const wrong = await api(h.base, "/api/users/@me/password", user.token, { body: { current_password: "nope nope nope", password: "a brand new passphrase" }, eat });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe("OVATION_ERR_IDENTITY_PASSWORD_INCORRECT");
    const weak = await api(h.base, "/api/users/@me/password", user.token, { body: { current_password: user.password, password: "short" }, eat });
    expect(weak.status).toBe(422);
    const ok = await api(h.base, "/api/users/@me/password", user.token, { body: { current_password: user.password, password: "a brand new passphrase" }, eat });
    expect(ok.status).toBe(200);
    expect(await verifyPassword(h.repos.users.get(user.id)?.password_hash ?? "", "a brand new passphrase")).toBe(true);
  });

  it("personal access tokens: list, create and revoke (EAT required for both)", async () => {
    const user = await localUser("ivy", "ivy@example.com", ["user:read", "user:manage:credentials"]);
    const noEat = await api(h.base, "/api/users/@me/tokens", user.token, { body: { name: "ci", scopes: ["user:read"] } });
    expect(noEat.status).toBe(401);
    expect(noEat.body.code).toBe("OVATION_ERR_IDENTITY_EAT_REQUIRED");
    const eat = await obtainEat(h, user.token, "ivy@example.com");
    const expired = await api(h.base, "/api/users/@me/tokens", user.token, { body: { name: "ci", scopes: ["user:read"] }, eat: `${eat}x` });
    expect(expired.body.code).toBe("OVATION_ERR_IDENTITY_EAT_INVALID");
    const beyond = await api(h.base, "/api/users/@me/tokens", user.token, { body: { name: "ci", scopes: ["alerts:manage"] }, eat });
    expect(beyond.status).toBe(422);
    expect(beyond.body.errors).toEqual({ scopes: [expect.stringContaining("alerts:manage")] });
    const unknown = await api(h.base, "/api/users/@me/tokens", user.token, { body: { name: "ci", scopes: ["root"] }, eat });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors as object)).toEqual(["scopes.0"]);
    const created = await api(h.base, "/api/users/@me/tokens", user.token, { body: { name: "ci", scopes: ["user:read"] }, eat });
    expect(created.status).toBe(201);
    const pat = String(created.body.token);
    expect(created.body).not.toHaveProperty("token_hash");
    const months = (Date.parse(String(created.body.expires_at)) - Date.parse(String(created.body.created_at))) / (24 * 3600 * 1000);
    expect(months).toBeGreaterThan(180);
    expect(months).toBeLessThan(186);
    expect((await api(h.base, "/api/users/@me", pat)).status).toBe(200);
    const list = await api(h.base, "/api/users/@me/tokens", user.token);
    expect(list.body).toEqual(expect.arrayContaining([expect.objectContaining({ id: created.body.id, name: "ci", scopes: ["user:read"], revoked_at: null })]));
    expect(JSON.stringify(list.body)).not.toContain("token_hash");

    const foreign = await api(h.base, `/api/users/@me/tokens/${String(created.body.id)}`, dana.token, { method: "DELETE", eat: await obtainEat(h, dana.token, "dana.new@example.com") });
    expect(foreign.status).toBe(404);
    expect((await api(h.base, `/api/users/@me/tokens/${String(created.body.id)}`, user.token, { method: "DELETE" })).status).toBe(401);
    expect((await api(h.base, `/api/users/@me/tokens/${String(created.body.id)}`, user.token, { method: "DELETE", eat })).status).toBe(204);
    expect((await api(h.base, "/api/users/@me", pat)).status).toBe(401);
  });

  it("deletes an account only with an EAT; its tokens stop working", async () => {
    const user = await localUser("jack", "jack@example.com");
    h.repos.connections.upsert({ user_id: user.id, platform: "kick", platform_user_id: "k1", username: "jack" });
    const noEat = await api(h.base, "/api/users/@me", user.token, { method: "DELETE" });
    expect(noEat.status).toBe(401);
    expect(noEat.body.code).toBe("OVATION_ERR_IDENTITY_EAT_REQUIRED");
    const eat = await obtainEat(h, user.token, "jack@example.com");
    expect((await api(h.base, "/api/users/@me", user.token, { method: "DELETE", eat })).status).toBe(204);
    expect((await api(h.base, "/api/users/@me", user.token)).status).toBe(401);
    expect(h.repos.connections.findByPlatformId("kick", "k1")).toBeNull();
    expect(h.repos.users.findByEmail("jack@example.com")).toBeNull();
    expect(h.identity.validateEat(user.id, eat)).toBeNull();
  });

  it("allows browser apps of registered clients to call the API (CORS), and no other origin", async () => {
    await h.client({ public: true, redirectUris: ["https://spa.example.com/callback"] });
    const preflight = await fetch(`${h.base}/api/users/@me`, {
      method: "OPTIONS",
      headers: { origin: "https://spa.example.com", "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://spa.example.com");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Elevated-Access-Token");
    const call = await fetch(`${h.base}/api/users/@me`, { headers: { origin: "https://spa.example.com", authorization: `Bearer ${dana.token}` } });
    expect(call.status).toBe(200);
    expect(call.headers.get("access-control-allow-origin")).toBe("https://spa.example.com");
    const evil = await fetch(`${h.base}/api/users/@me`, { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "GET" } });
    expect(evil.status).toBe(403);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    const evilCall = await fetch(`${h.base}/api/users/@me`, { headers: { origin: "https://evil.example", authorization: `Bearer ${dana.token}` } });
    expect(evilCall.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers malformed JSON with a 400 that names the problem", async () => {
    const response = await fetch(`${h.base}/api/eat/verify-code`, { method: "POST", headers: { authorization: `Bearer ${dana.token}`, "content-type": "application/json" }, body: "{nope" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.code).toBe("OVATION_ERR_IDENTITY_BAD_REQUEST");
  });
});
