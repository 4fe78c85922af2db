import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEatValidator } from "../eat/remote.js";
import { EAT_CODE_RULES } from "../eat/service.js";
import { fakeClock, startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api } from "./oauth-helpers.js";

const CODE = /verification code is: (\d{6})/;

describe("Elevated Access Tokens", () => {
  const clock = fakeClock();
  let h: Harness;
  let bob: { id: number; token: string };
  let carol: { id: number; token: string };

  async function userWithToken(name: string, email: string | null): Promise<{ id: number; token: string }> {
    const user = await h.createUser({ name, email });
    const { token } = h.repos.tokens.create({ user_id: user.id, name: "test", scopes: ["*"] });
    return { id: user.id, token };
  }

  async function requestCode(user: { token: string }, email: string, nth: number): Promise<string> {
    const sent = await api(h.base, "/api/eat/request-verification", user.token, { method: "POST" });
    expect(sent.status).toBe(202);
    const mail = await h.smtp.waitFor(email, nth);
    expect(mail.subject).toBe("Your Ovation verification code");
    const code = CODE.exec(mail.text)?.[1];
    if (code === undefined) throw new Error(`no code in mail: ${mail.text}`);
    return code;
  }

  const mailsTo = (email: string) => h.smtp.mails.filter((m) => m.to.includes(email)).length;

  beforeAll(async () => {
    h = await startHarness({ clock, lifetimes: { eat: 600, eatCode: 300 } });
    bob = await userWithToken("bob", "bob@example.com");
    carol = await userWithToken("carol", "carol@example.com");
  });
  afterAll(async () => {
    await h.close();
  });

  it("needs a bearer token for every EAT endpoint", async () => {
    for (const [path, method] of [["/api/eat/request-verification", "POST"], ["/api/eat/verify-code", "POST"], ["/api/eat/verify", "GET"]] as const) {
      const r = await api(h.base, path, null, { method });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe("OVATION_ERR_IDENTITY_UNAUTHENTICATED");
    }
  });

  it("mails a code, stores it hashed, and exchanges it once for an EAT bound to its user with exact expiry", async () => {
    const code = await requestCode(bob, "bob@example.com", mailsTo("bob@example.com") + 1);
    expect(JSON.stringify(h.identity.store.data.eat_codes)).not.toContain(code);

    const issued = await api(h.base, "/api/eat/verify-code", bob.token, { body: { code } });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ user_id: bob.id, expires_at: new Date(clock() + 600_000).toISOString().replace(/Z$/, "000Z") });
    const eat = String(issued.body.token);
    expect(eat).toMatch(/^oveat_/);
    expect(JSON.stringify(h.identity.store.data.eats)).not.toContain(eat);

    const again = await api(h.base, "/api/eat/verify-code", bob.token, { body: { code } });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe("OVATION_ERR_IDENTITY_EAT_CODE_INVALID");

    const ok = await api(h.base, "/api/eat/verify", bob.token, { eat });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ valid: true, id: issued.body.id, user_id: bob.id });
    expect(ok.body).not.toHaveProperty("token");

    const foreign = await api(h.base, "/api/eat/verify", carol.token, { eat });
    expect(foreign.status).toBe(401);
    expect(foreign.body.code).toBe("OVATION_ERR_IDENTITY_EAT_INVALID");

    const missing = await api(h.base, "/api/eat/verify", bob.token);
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe("OVATION_ERR_IDENTITY_EAT_REQUIRED");

    const garbage = await api(h.base, "/api/eat/verify", bob.token, { eat: "oveat_nonsense" });
    expect(garbage.status).toBe(401);
    expect(garbage.body.code).toBe("OVATION_ERR_IDENTITY_EAT_INVALID");

    expect(h.identity.validateEat(bob.id, eat)).toMatchObject({ id: issued.body.id });
    expect(h.identity.validateEat(carol.id, eat)).toBeNull();

    clock.advance(600_000 - 1);
    expect((await api(h.base, "/api/eat/verify", bob.token, { eat })).status).toBe(200);
    clock.advance(1);
    const expired = await api(h.base, "/api/eat/verify", bob.token, { eat });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe("OVATION_ERR_IDENTITY_EAT_INVALID");
    expect(h.identity.validateEat(bob.id, eat)).toBeNull();
  });

  it("burns a code after 5 wrong tries, even for the right code afterwards", async () => {
    clock.advance(EAT_CODE_RULES.requestWindowMs);
    const code = await requestCode(bob, "bob@example.com", mailsTo("bob@example.com") + 1);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 1; i < EAT_CODE_RULES.maxWrongAttempts; i += 1) {
      const r = await api(h.base, "/api/eat/verify-code", bob.token, { body: { code: wrong } });
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ code: "OVATION_ERR_IDENTITY_EAT_CODE_INVALID", attempts_left: EAT_CODE_RULES.maxWrongAttempts - i, errors: { code: ["The verification code is invalid."] } });
    }
    const fifth = await api(h.base, "/api/eat/verify-code", bob.token, { body: { code: wrong } });
    expect(fifth.status).toBe(422);
    expect(fifth.body.code).toBe("OVATION_ERR_IDENTITY_EAT_CODE_BURNED");
    const right = await api(h.base, "/api/eat/verify-code", bob.token, { body: { code } });
    expect(right.status).toBe(422);
    expect(right.body.code).toBe("OVATION_ERR_IDENTITY_EAT_CODE_INVALID");
  });

  it("lets a code expire and a newer code replace an older one", async () => {
    clock.advance(EAT_CODE_RULES.requestWindowMs);
    // The code lifetime (300 s here) is exact: 1 ms before it the code still works.
    const fresh = await requestCode(bob, "bob@example.com", mailsTo("bob@example.com") + 1);
    clock.advance(300_000 - 1);
    expect((await api(h.base, "/api/eat/verify-code", bob.token, { body: { code: fresh } })).status).toBe(201);
    const old = await requestCode(bob, "bob@example.com", mailsTo("bob@example.com") + 1);
    clock.advance(300_000);
    expect((await api(h.base, "/api/eat/verify-code", bob.token, { body: { code: old } })).status).toBe(422);

    const first = await requestCode(bob, "bob@example.com", mailsTo("bob@example.com") + 1);
    const second = await requestCode(bob, "bob@example.com", mailsTo("bob@example.com") + 1);
    if (first !== second) expect((await api(h.base, "/api/eat/verify-code", bob.token, { body: { code: first } })).status).toBe(422);
    expect((await api(h.base, "/api/eat/verify-code", bob.token, { body: { code: second } })).status).toBe(201);
  });

  it("rate-limits code requests per user", async () => {
    clock.advance(EAT_CODE_RULES.requestWindowMs);
    for (let i = 0; i < EAT_CODE_RULES.requestsPerWindow; i += 1) {
      expect((await api(h.base, "/api/eat/request-verification", carol.token, { method: "POST" })).status).toBe(202);
    }
    const limited = await api(h.base, "/api/eat/request-verification", carol.token, { method: "POST" });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("OVATION_ERR_IDENTITY_RATE_LIMITED");
    expect(limited.body.retry_after).toBe(EAT_CODE_RULES.requestWindowMs / 1000);
    // Another user is not affected.
    expect((await api(h.base, "/api/eat/request-verification", bob.token, { method: "POST" })).status).toBe(202);
    clock.advance(EAT_CODE_RULES.requestWindowMs);
    expect((await api(h.base, "/api/eat/request-verification", carol.token, { method: "POST" })).status).toBe(202);
  });

  it("validates the verify-code body and refuses accounts without an email address", async () => {
    const bad = await api(h.base, "/api/eat/verify-code", bob.token, { body: { code: 123456 } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ code: ["The code field must be a string."] });
    const empty = await api(h.base, "/api/eat/verify-code", bob.token, { body: {} });
    expect(empty.status).toBe(422);
    const shadow = await userWithToken("shadow-eat", null);
    const noMail = await api(h.base, "/api/eat/request-verification", shadow.token, { method: "POST" });
    expect(noMail.status).toBe(409);
    expect(noMail.body.code).toBe("OVATION_ERR_IDENTITY_NO_EMAIL");
  });

  it("validates EATs over HTTP for a main API on another host", async () => {
    clock.advance(EAT_CODE_RULES.requestWindowMs);
    const code = await requestCode(bob, "bob@example.com", mailsTo("bob@example.com") + 1);
    const eat = String((await api(h.base, "/api/eat/verify-code", bob.token, { body: { code } })).body.token);
    const remote = createEatValidator({ idUrl: h.base });
    expect(await remote({ userId: bob.id, bearerToken: bob.token, eat })).toMatchObject({ user_id: bob.id });
    expect(await remote({ userId: carol.id, bearerToken: carol.token, eat })).toBeNull();
    expect(await remote({ userId: bob.id, bearerToken: bob.token, eat: "oveat_x" })).toBeNull();
    const local = createEatValidator({ local: h.identity });
    expect(await local({ userId: bob.id, bearerToken: bob.token, eat })).toMatchObject({ user_id: bob.id });
    const unreachable = createEatValidator({ idUrl: "http://127.0.0.1:9", timeoutMs: 2000 });
    await expect(unreachable({ userId: bob.id, bearerToken: bob.token, eat })).rejects.toMatchObject({ code: "OVATION_ERR_IDENTITY_REMOTE_UNAVAILABLE" });
  });
});
